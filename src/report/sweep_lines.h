// What a sweep shows as it runs: one line a configuration once it is done (verified and timed,
// skipped with its reason, or failed with its message), "best so far" marking a new best of its
// problem. Plain lines, never cursor codes: a sweep runs hundreds of configurations.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>

#include "report/terminal.h"
#include "results/run_observer.h"
#include "results/run_record.h"

namespace refract::report {

class SweepLines final : public results::RunObserver {
 public:
  /// `total`: the configurations the run will report, for "[12/340]"; `done` of them already
  /// were (a resumed run).
  SweepLines(std::ostream& out, TerminalStyle style, uint64_t total, uint64_t done);

  void OnRow(const results::ResultRow& row) override;
  void OnProgress(int, int, int, double) override {}

 private:
  std::ostream& out_;
  TerminalStyle style_;
  uint64_t total_;
  uint64_t done_;
  std::map<std::string, double> best_ms_;  ///< by category
};

/// The end of a sweep: per problem its winner (and the winner within the default limits when
/// another), with the reasons the review gave, then every cliff; then how many configurations
/// ran, were skipped and failed.
void RenderSweepSummary(std::ostream& out, const results::RunRecord& record, TerminalStyle style);

}  // namespace refract::report
