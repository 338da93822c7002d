#include "bench/row_fill.h"

#include <fmt/format.h>

namespace refract::bench {
namespace {

results::RowStatus ToRowStatus(measure::Status status) {
  switch (status) {
    case measure::Status::kOk:
      return results::RowStatus::kOk;
    case measure::Status::kError:
      return results::RowStatus::kError;
    case measure::Status::kSkipped:
      return results::RowStatus::kSkipped;
    case measure::Status::kRunning:
      break;
  }
  return results::RowStatus::kRunning;
}

std::vector<double> Scaled(const std::vector<double>& values, double scale) {
  std::vector<double> out;
  out.reserve(values.size());
  for (double value : values) out.push_back(value * scale);
  return out;
}

std::string LinearityText(const measure::WorkloadOutcome& outcome) {
  if (outcome.work == 0 || outcome.status != measure::Status::kOk) return "";
  std::string text(measure::LinearityStateName(outcome.linearity.state));
  if (outcome.linearity.ratio) {
    text += fmt::format(": time x{:.2f} per work doubling", *outcome.linearity.ratio);
  }
  if (!outcome.linearity.reason.empty()) text += " (" + outcome.linearity.reason + ")";
  return text;
}

std::string FlagReason(const std::string& flag, const measure::WorkloadOutcome& outcome) {
  if (flag == measure::kSuspectFlag) return "suspect: " + outcome.linearity.reason;
  if (flag == measure::kThrottledFlag) {
    return "throttled: samples kept slowing down after every cooldown";
  }
  if (flag == measure::kFewSamplesFlag) {
    return fmt::format(
        "few-samples: {} kept sample{} ({} set aside as throttled); at least {} state a spread, "
        "so the interval is unknown",
        outcome.times_ms.size(), outcome.times_ms.size() == 1 ? "" : "s",
        outcome.throttled_ms.size(), measure::kFewestSamplesForSpread);
  }
  if (flag == measure::kTimestampDemotedFlag) {
    return "timestamp-demoted: GPU timestamps disagreed with the wall clock twice in a row";
  }
  return flag;
}

}  // namespace

results::Statistics ResultStatistics(const measure::Statistics& stats, double scale) {
  results::Statistics out;
  out.count = stats.count;
  if (stats.count == 0) return out;
  out.min = stats.min * scale;
  out.mean = stats.mean * scale;
  out.median = stats.median * scale;
  out.stddev = stats.stddev * scale;
  out.ci95 = stats.ci95 * scale;
  out.p10 = stats.p10 * scale;
  out.p90 = stats.p90 * scale;
  return out;
}

void FillRow(results::ResultRow& row, const measure::WorkloadOutcome& outcome,
             uint32_t invocations) {
  const double per_invocation = 1.0 / static_cast<double>(invocations);
  row.status = ToRowStatus(outcome.status);
  row.message = outcome.message;
  row.stop_reason = measure::StopReasonName(outcome.stop_reason);
  row.times_ms = Scaled(outcome.times_ms, per_invocation);
  row.throttled_ms = Scaled(outcome.throttled_ms, per_invocation);
  row.stats = ResultStatistics(outcome.stats, per_invocation);
  row.statistic = measure::HeadlineName(outcome.headline);
  row.timing_method = outcome.timing_method;
  row.work_knob = outcome.work;
  row.dispatches_per_sample = uint64_t{outcome.dispatches_per_sample} * invocations;
  row.work_per_dispatch = outcome.work_per_dispatch * per_invocation;
  // A row that ended as error or skipped keeps the samples it got, but no headline figure.
  const bool failed =
      outcome.status == measure::Status::kError || outcome.status == measure::Status::kSkipped;
  row.metric_value = outcome.times_ms.empty() || failed ? results::kNoValue : outcome.metric_value;
  row.flags = outcome.flags;
  row.notes = outcome.notes;
  row.linearity = LinearityText(outcome);
  row.flag_reasons.clear();
  for (const std::string& flag : outcome.flags)
    row.flag_reasons.push_back(FlagReason(flag, outcome));
}

}  // namespace refract::bench
