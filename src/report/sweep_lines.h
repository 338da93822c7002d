// What a sweep shows as it runs: one line a configuration once it is done (verified and timed,
// skipped with its reason, or failed with its message), "best so far" marking a new best of its
// problem. Plain lines, never cursor codes: a sweep runs hundreds of configurations.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "report/terminal.h"
#include "results/run_observer.h"
#include "results/run_record.h"

namespace refract::report {

class SweepLines final : public results::RunObserver {
 public:
  /// `total`: the configurations the run will report, for "[12/340]"; `done`: the rows already
  /// finished (a resumed run's journal), counted and taken as each problem's best so far.
  SweepLines(std::ostream& out, TerminalStyle style, uint64_t total,
             const std::vector<results::ResultRow>& done);

  void OnRow(const results::ResultRow& row) override;
  void OnProgress(int, int, int, double) override {}

 private:
  /// Whether `row` is its problem's fastest so far (then it is kept as such).
  bool Best(const results::ResultRow& row);

  std::ostream& out_;
  TerminalStyle style_;
  uint64_t total_;
  uint64_t done_;
  std::map<std::string, double> best_ms_;  ///< by category
};

/// The end of a sweep: per problem its winner (and the winner within the default limits when
/// another), with the reasons the review gave, then every cliff; a problem none of whose
/// configurations was verified and timed says "no winner" and why (every one failed, or was
/// skipped); then how many configurations ran, were skipped and failed.
void RenderSweepSummary(std::ostream& out, const results::RunRecord& record, TerminalStyle style);

/// Why a problem has no winner, from how many of its configurations failed and were skipped
/// ("every configuration failed (12): see their messages"): the terminal's and the report's.
std::string NoWinnerReason(uint64_t failed, uint64_t skipped);

}  // namespace refract::report
