// Recording work the way an engine does: several compute passes and copies in one command
// buffer, submitted without waiting; timestamps at a pass's start and end; small buffers written
// through the queue and read back only when asked. Context::RunPass stays the one-pass,
// submit-and-wait path the benchmark rows use.
//
// Errors: nothing here opens an error scope (a scope's pop is a round trip, which a recording
// loop must not pay): a validation error or a lost device is recorded by Dawn's callbacks and
// raised by the next Context call that checks (Context::ThrowIfFailed, WaitIdle, ReadTimestamps).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "gpu/context.h"

namespace refract::gpu {

/// A set of GPU timestamps and what resolves and reads them back.
class TimestampQueries {
 public:
  /// `count` timestamps (needs Feature::kTimestampQuery; GpuError without it).
  TimestampQueries(Context& context, uint32_t count);
  ~TimestampQueries();
  TimestampQueries(const TimestampQueries&) = delete;
  TimestampQueries& operator=(const TimestampQueries&) = delete;

  uint32_t count() const;
  /// Waits for the queue, resolves the first `count` timestamps and reads them [ns, from an
  /// arbitrary origin; a slot never written reads 0].
  std::vector<uint64_t> Read(uint32_t count);

  struct Impl;

 private:
  friend class CommandRecorder;
  Context& context_;
  std::unique_ptr<Impl> impl_;
};

/// One command buffer being recorded. Not thread-safe.
class CommandRecorder {
 public:
  explicit CommandRecorder(Context& context);
  ~CommandRecorder();
  CommandRecorder(const CommandRecorder&) = delete;
  CommandRecorder& operator=(const CommandRecorder&) = delete;

  /// Begins a compute pass; with `queries`, timestamp `begin` is written at its start and `end`
  /// at its end.
  void BeginPass(TimestampQueries* queries = nullptr, uint32_t begin = 0, uint32_t end = 0);
  /// Records `dispatch` in the open pass (its pipeline and bind groups set only where they
  /// change).
  void Dispatch(const gpu::Dispatch& dispatch);
  void EndPass();
  /// Copies `size` bytes (a multiple of 4) between buffers, outside passes.
  void Copy(const Buffer& source, uint64_t source_offset, const Buffer& destination,
            uint64_t destination_offset, uint64_t size);
  /// Finishes the command buffer and submits it, without waiting; the next call starts a new one.
  void Submit();

  /// What this recorder has recorded since it was made.
  uint64_t dispatches() const { return dispatches_; }
  uint64_t passes() const { return passes_; }
  uint64_t submits() const { return submits_; }

  struct Impl;

 private:
  void Open();
  Context& context_;
  std::unique_ptr<Impl> impl_;
  uint64_t dispatches_ = 0, passes_ = 0, submits_ = 0;
};

}  // namespace refract::gpu
