#include "tune/sweep_supervisor.h"

#include <ostream>

namespace refract::tune {

SupervisedEnd Supervise(WorkerLauncher& launcher, SweepJournal& journal,
                        const std::function<std::optional<BlamedRow>(const std::string& id,
                                                                     const std::string& how)>& blame,
                        const std::function<bool()>& stop_requested, std::ostream& lines) {
  using Kind = WorkerEnd::Kind;
  int stalled = 0;
  while (true) {
    const size_t rows_before = journal.rows().size();
    const WorkerEnd end = launcher.RunWorker();
    journal.Reload();
    if (end.kind == Kind::kDone) return {};
    if (end.kind == Kind::kNewDevice && !stop_requested()) continue;
    if (stop_requested() || end.kind == Kind::kInterrupted) {
      return {.kind = SupervisedEnd::Kind::kInterrupted,
              .why = "interrupted (--resume goes on from here)"};
    }
    if (end.kind == Kind::kFailed) {  // the worker said why (no adapter, a journal, …)
      return {.kind = SupervisedEnd::Kind::kWorkerFailed,
              .exit_code = end.exit_code,
              .why = "the worker failed (" + end.how + ")"};
    }
    // It died, lost its device or hung: what it was running gets the blame, the rest a new
    // worker and device.
    if (const std::optional<std::string> id = journal.unfinished()) {
      if (std::optional<BlamedRow> blamed = blame(*id, end.how)) {
        journal.AppendRow(blamed->row, blamed->sweep, 0);
      }
    }
    lines << "sweep worker ended (" << end.how << "); starting a new one\n";
    stalled = journal.rows().size() > rows_before ? 0 : stalled + 1;
    if (stalled >= kMostStalledWorkers) {
      return {.kind = SupervisedEnd::Kind::kStalled,
              .why = std::to_string(kMostStalledWorkers) +
                     " sweep workers in a row ended before any configuration (last: " + end.how +
                     ")"};
    }
  }
}

}  // namespace refract::tune
