// Stopping a run on SIGINT or SIGTERM without losing it: the first signal asks the run to stop
// after the current measurement (the finished rows are written, exit 130); a second exits at
// once, but never in the middle of writing an output.
#pragma once

namespace refract::cli {

/// While alive, SIGINT and SIGTERM do not kill refract: the first makes StopRequested() true
/// (and says so on standard error); a second exits at once with kExitInterrupted, unless an
/// OutputWriting is alive: then refract exits as soon as that write is done (a third signal
/// exits even then). Restores the previous handlers when destroyed. One at a time.
class InterruptHandling {
 public:
  InterruptHandling();
  ~InterruptHandling();
  InterruptHandling(const InterruptHandling&) = delete;
  InterruptHandling& operator=(const InterruptHandling&) = delete;

  /// True once SIGINT or SIGTERM arrived while this object was alive. Async-signal-safe.
  static bool StopRequested();
};

/// Marks the writing of one output file: while alive, a second signal waits for the write to
/// end; the destructor then ends refract with kExitInterrupted (standard streams flushed).
class OutputWriting {
 public:
  OutputWriting();
  ~OutputWriting();
  OutputWriting(const OutputWriting&) = delete;
  OutputWriting& operator=(const OutputWriting&) = delete;
};

}  // namespace refract::cli
