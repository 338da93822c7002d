// The decisions of a sweep's supervisor (docs/SWEEPS.md), pure: a worker runs configurations
// until it ends; one that finished is the end; one that wants a fresh device for the next
// problem is followed by another; one that died, lost its device or hung has the configuration
// it was running recorded as failed and is followed by another, until two in a row end before
// any configuration; an interrupt or a worker that failed for its own reason (no adapter, an
// unwritable journal) ends the run. How a worker runs — a process in refract
// (cli/sweep_worker_process), a script in tests — is behind WorkerLauncher.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

#include "results/run_record.h"
#include "tune/sweep_journal.h"

namespace refract::tune {

/// How a worker ended, as the supervisor reads it.
struct WorkerEnd {
  enum class Kind {
    kDone,         ///< every configuration has a row, or a budget cut the rest
    kNewDevice,    ///< the next problem wants a fresh device: not a failure
    kInterrupted,  ///< it stopped on an interrupt
    kDeviceLost,   ///< its device was lost: what it was running failed
    kHung,         ///< its device hung: likewise
    kDied,         ///< a signal ended it (a crashing driver): likewise
    kFailed,       ///< it failed for a reason it said (exit_code): the run ends
  };
  Kind kind = Kind::kDone;
  int exit_code = 0;  ///< kFailed: the code it exited with
  std::string how;    ///< in words: "signal 11 (Segmentation fault)", "exit code 75"
};

/// Runs one worker over the journal's missing configurations, to its end.
class WorkerLauncher {
 public:
  virtual ~WorkerLauncher() = default;
  virtual WorkerEnd RunWorker() = 0;
};

/// A failed configuration's row, and the sweep it belongs to, for the journal.
struct BlamedRow {
  results::ResultRow row;
  std::string sweep;
};

/// Workers in a row that may end before any configuration finished before the run gives up.
inline constexpr int kMostStalledWorkers = 2;

/// How a supervised run ended.
struct SupervisedEnd {
  enum class Kind {
    kComplete,      ///< the last worker was done
    kInterrupted,   ///< a stop request or an interrupted worker
    kWorkerFailed,  ///< a worker failed for its own reason (exit_code)
    kStalled,       ///< kMostStalledWorkers in a row ended before any configuration
  };
  Kind kind = Kind::kComplete;
  int exit_code = 0;     ///< kWorkerFailed: the worker's exit code
  /// Why the configurations that did not run did not ("" when complete): "interrupted (…)".
  std::string why;
};

/// Runs workers through `launcher` until the run ends, as the header says; `journal` is
/// reloaded after each (a worker appends to its file); the configuration a dead worker was
/// running (journal.unfinished()) is appended as the row `blame(id, how)` makes. `stop_requested`
/// is asked after each worker; `lines` hears of each worker that ended early.
SupervisedEnd Supervise(WorkerLauncher& launcher, SweepJournal& journal,
                        const std::function<std::optional<BlamedRow>(const std::string& id,
                                                                     const std::string& how)>& blame,
                        const std::function<bool()>& stop_requested, std::ostream& lines);

}  // namespace refract::tune
