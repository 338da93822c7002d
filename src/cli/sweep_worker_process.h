// A sweep's worker as a process (docs/SWEEPS.md): the supervisor forks it, in its own process
// group, killed with its parent; a stop request (SIGINT, SIGTERM) is passed on to it once; its
// wait status read as a tune::WorkerEnd. The worker's own body (a device, then the journal's
// missing configurations) is the function it is given, which returns one of the exit codes
// below; the supervisor's decisions are tune::Supervise's.
#pragma once

#include <functional>

#include "tune/sweep_supervisor.h"

namespace refract::cli {

/// A worker's exit codes beyond the app's (0 done, 130 interrupted; others: it failed and said
/// why): its device was lost or hung, or the next problem wants a fresh device.
inline constexpr int kWorkerDeviceLost = 75;
inline constexpr int kWorkerHung = 76;
inline constexpr int kWorkerNewDevice = 77;

/// `status` (waitpid's) as the supervisor reads it.
tune::WorkerEnd WorkerEndOf(int status);

class WorkerProcess final : public tune::WorkerLauncher {
 public:
  /// `work` runs in the child and returns its exit code; `stop_requested` is asked while it
  /// runs (a stop passes SIGINT on to the child once).
  WorkerProcess(std::function<int()> work, std::function<bool()> stop_requested);

  /// Forks the worker and waits for it; throws EnvironmentError when it cannot start or is lost.
  tune::WorkerEnd RunWorker() override;

 private:
  std::function<int()> work_;
  std::function<bool()> stop_requested_;
};

}  // namespace refract::cli
