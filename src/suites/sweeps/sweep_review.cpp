#include "suites/sweeps/sweep_review.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "results/row_identity.h"
#include "tune/sweep_analysis.h"

namespace refract::suites::sweeps {
namespace {

using results::ResultRow;

double Number(const ResultRow& row, const std::string& name) {
  return results::NumberOf(row.params, name).value_or(tune::kNoValue);
}

void Flag(ResultRow& row, const std::string& flag, const std::string& reason) {
  row.flags.push_back(flag);
  row.flag_reasons.push_back(flag + ": " + reason);
}

std::string Times(double ratio) { return fmt::format("{:.2f}x", ratio); }

/// "1.31x the built-in default, 1.05x the seed's" for the rows given, "" when neither ran.
std::string Speedups(double winner_ms, const ResultRow* fallback, const ResultRow* seed) {
  std::string text;
  if (fallback != nullptr)
    text += Times(fallback->stats.median / winner_ms) +
            (results::IdentityOf(fallback->params).sweep.rfind("tune:", 0) == 0
                 ? " the spec's default"
                 : " the built-in default");
  if (seed != nullptr) {
    text += (text.empty() ? "" : ", ") + Times(seed->stats.median / winner_ms) + " the seed's";
  }
  return text;
}

std::string Cause(const std::string& axis, double before, double x) {
  if (axis == "bytes") {
    return fmt::format("the buffer outgrew a cache: it fit at {:.0f} KiB, not at {:.0f} KiB",
                       before / 1024, x / 1024);
  }
  if (axis == "workgroup_bytes") {
    return "workgroup memory a workgroup: fewer workgroups fit a multiprocessor at once";
  }
  if (axis == "wg") {
    return "invocations a workgroup: fewer workgroups in flight, or too few to fill the device";
  }
  return "";
}

struct Group {
  std::vector<size_t> rows;  // indices into the rows reviewed
};

void MarkCliffs(std::vector<ResultRow>& rows, const Group& group, const SweepReading& reading,
                double& cliffs_found) {
  std::vector<tune::Trial> trials;
  for (size_t index : group.rows) trials.push_back(TrialOf(rows[index], reading.main_axis));
  const std::vector<tune::Cliff> cliffs =
      tune::FindCliffs(trials, {.threshold = reading.cliff_threshold});
  for (const tune::Cliff& cliff : cliffs) {
    // The best row at the cliff's x, and the largest measured x before it.
    std::optional<size_t> best;
    double previous_x = cliff.before_x;
    for (size_t i = 0; i < trials.size(); ++i) {
      const tune::Trial& trial = trials[i];
      if (trial.outcome != tune::TrialOutcome::kMeasured || !std::isfinite(trial.rate)) continue;
      if (trial.x < cliff.x) previous_x = std::max(previous_x, trial.x);
      if (trial.x == cliff.x && (!best || trial.rate > trials[*best].rate)) best = i;
    }
    if (!best) continue;
    std::string reason =
        fmt::format("{:.0f} % of the best at a smaller {} ({} = {:.0f})", 100 * cliff.depth,
                    reading.main_axis, reading.main_axis, cliff.before_x);
    // Configurations at this x that failed or were refused may have been its fast ones: then
    // the drop is theirs, not the axis's, and no cause of the axis is named.
    const auto lost = std::count_if(trials.begin(), trials.end(), [&](const tune::Trial& trial) {
      return trial.x == cliff.x && trial.outcome != tune::TrialOutcome::kMeasured;
    });
    const auto at_x = std::count_if(trials.begin(), trials.end(),
                                    [&](const tune::Trial& trial) { return trial.x == cliff.x; });
    if (lost > 0) {
      reason += fmt::format(
          ": {} of the {} configurations at {} = {:.0f} failed or were skipped, and the best "
          "of the rest is this: the drop may be theirs, not the axis's",
          lost, at_x, reading.main_axis, cliff.x);
    } else if (const std::string cause = Cause(reading.main_axis, previous_x, cliff.x);
               !cause.empty()) {
      reason += ": likely " + cause;
    }
    Flag(rows[group.rows[*best]], kCliffFlag, reason);
    ++cliffs_found;
  }
}

/// Flags `fallback` (the default row) and each ok grid row of `group` configured as it is when
/// their medians lie more than kTwinTolerance apart; returns the largest spread (0: none).
double MarkUnrepeatable(std::vector<ResultRow>& rows, const Group& group, ResultRow& fallback) {
  const std::vector<std::string> axes = SplitNames(results::TextOf(fallback.params, kAxesParam));
  if (axes.empty()) return 0;
  double widest = 0;
  for (size_t index : group.rows) {
    ResultRow& twin = rows[index];
    if (&twin == &fallback || twin.status != results::RowStatus::kOk ||
        results::IdentityOf(twin.params).role != kRoleGrid) {
      continue;
    }
    const bool same = std::all_of(axes.begin(), axes.end(), [&](const std::string& axis) {
      const auto mine = fallback.params.find(axis), theirs = twin.params.find(axis);
      return mine != fallback.params.end() && theirs != twin.params.end() &&
             mine->second == theirs->second;
    });
    if (!same) continue;
    const double spread = std::max(fallback.stats.median, twin.stats.median) /
                          std::min(fallback.stats.median, twin.stats.median);
    if (!(spread > 1 + kTwinTolerance)) continue;
    const std::string reason = fmt::format(
        "the default and {} are one configuration, read {:.4g} and {:.4g} µs ({:.2f}x apart) in "
        "this run: the problem's readings did not repeat, so its winner and speed-ups are not "
        "to be trusted",
        twin.id, 1e3 * fallback.stats.median, 1e3 * twin.stats.median, spread);
    Flag(fallback, kUnrepeatableFlag, reason);
    Flag(twin, kUnrepeatableFlag, reason);
    widest = std::max(widest, spread);
  }
  return widest;
}

}  // namespace

std::vector<std::string> SplitNames(const std::string& list) {
  std::vector<std::string> names;
  size_t start = 0;
  while (start < list.size()) {
    const size_t end = std::min(list.find(',', start), list.size());
    if (end > start) names.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return names;
}

tune::Trial TrialOf(const ResultRow& row, const std::string& main_axis) {
  tune::Trial trial{.x = Number(row, main_axis),
                    .within_default_limits = !row.params.contains("over_default_limits")};
  switch (row.status) {
    case results::RowStatus::kOk:
      trial.outcome = tune::TrialOutcome::kMeasured;
      trial.median_ms = row.stats.median;
      trial.p10_ms = row.stats.p10;
      trial.p90_ms = row.stats.p90;
      trial.rate = row.work_per_dispatch / row.stats.median;
      break;
    case results::RowStatus::kSkipped:
      trial.outcome = tune::TrialOutcome::kRejected;
      break;
    default:
      trial.outcome = tune::TrialOutcome::kFailed;
  }
  trial.reason = row.message;
  return trial;
}

SweepReview ReviewSweepRows(std::vector<ResultRow>& rows,
                            const std::map<std::string, SweepReading>& readings) {
  SweepReview review;
  results::Summary& summary = review.summary;
  std::map<std::string, Group> by_category;
  for (size_t i = 0; i < rows.size(); ++i) {
    ResultRow& row = rows[i];
    const std::string sweep = results::IdentityOf(row.params).sweep;
    auto reading = readings.find(sweep);
    if (reading == readings.end()) continue;
    if (const std::string over = results::TextOf(row.params, "over_default_limits"); !over.empty()) {
      Flag(row, kOverDefaultLimitsFlag, over);
    }
    by_category[row.category].rows.push_back(i);
    summary[sweep + ": configurations"] += 1;
    if (row.status == results::RowStatus::kOk) summary[sweep + ": measured"] += 1;
  }
  for (const auto& [category, group] : by_category) {
    const std::string sweep = results::IdentityOf(rows[group.rows.front()].params).sweep;
    const SweepReading& reading = readings.at(sweep);
    if (!reading.has_winners) continue;
    // The candidates: rows of the built-in default's variant (the op's own configurations).
    std::string variant;
    for (size_t index : group.rows) {
      const results::RowIdentity identity = results::IdentityOf(rows[index].params);
      if (identity.role == kRoleDefault) variant = identity.variant;
    }
    std::vector<tune::Trial> trials;
    ProblemWinners problem;
    ResultRow* fallback = nullptr;
    const ResultRow* seed = nullptr;
    for (size_t index : group.rows) {
      ResultRow& row = rows[index];
      const results::RowIdentity identity = results::IdentityOf(row.params);
      tune::Trial trial = TrialOf(row, reading.main_axis);
      if (!variant.empty() && identity.variant != variant) {
        trial.outcome = tune::TrialOutcome::kRejected;  // another kernel: not a candidate
      } else {
        problem.candidates.push_back(row.id);
      }
      trials.push_back(std::move(trial));
      if (row.status != results::RowStatus::kOk) continue;
      if (identity.role == kRoleDefault) fallback = &row;
      if (identity.role == kRoleSeed) seed = &row;
    }
    if (fallback != nullptr) {
      problem.fallback = fallback->id;
      if (const double spread = MarkUnrepeatable(rows, group, *fallback); spread > 0) {
        summary[category + ": twin spread"] = spread;
      }
    }
    if (seed != nullptr) problem.seed = seed->id;
    const tune::Winners winners = tune::PickWinners(trials);
    auto mark = [&](const std::optional<tune::Winner>& winner, const char* flag, const char* what) {
      if (!winner) return;
      ResultRow& row = rows[group.rows[winner->trial]];
      std::string reason =
          fmt::format("the fastest verified configuration{} of {}", what, category);
      if (std::isfinite(winner->margin)) {
        reason += fmt::format("; the runner-up {:.1f} % slower", 100 * winner->margin);
      }
      if (const std::string speedups = Speedups(row.stats.median, fallback, seed);
          !speedups.empty()) {
        reason += "; " + speedups;
      }
      Flag(row, flag, reason);
    };
    mark(winners.overall, kWinnerFlag, "");
    mark(winners.within_default_limits, kDefaultLimitsWinnerFlag, " within the default limits");
    if (winners.overall) {
      const double winner_ms = rows[group.rows[winners.overall->trial]].stats.median;
      if (fallback)
        summary[category + ": winner over default"] = fallback->stats.median / winner_ms;
      if (seed) summary[category + ": winner over seed"] = seed->stats.median / winner_ms;
      problem.winner = rows[group.rows[winners.overall->trial]].id;
      problem.margin = winners.overall->margin;
      if (const auto& within = winners.within_default_limits) {
        problem.within_default_limits = rows[group.rows[within->trial]].id;
        problem.within_margin = within->margin;
      }
      review.problems[category] = std::move(problem);
    }
  }
  for (const auto& [category, group] : by_category) {
    const std::string sweep = results::IdentityOf(rows[group.rows.front()].params).sweep;
    double cliffs = 0;
    MarkCliffs(rows, group, readings.at(sweep), cliffs);
    if (cliffs > 0) summary[sweep + ": cliffs"] += cliffs;  // a summary value is never 0
  }
  return review;
}

}  // namespace refract::suites::sweeps
