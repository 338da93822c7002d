#include "suites/ceilings/ceilings_suite.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "base/error.h"
#include "measure/gpu_timestamp_timer.h"
#include "measure/steady_clock.h"
#include "measure/wall_clock_timer.h"

namespace refract::suites::ceilings {
namespace {

results::ResultRow BaseRow(const CeilingRow& row) {
  results::ResultRow result;
  const RowInfo& info = row.info();
  result.id = info.id;
  result.category = info.category;
  result.unit = info.unit;
  result.description = info.description;
  result.rows = row.Rows();
  result.cols = row.Cols();
  result.buffer_bytes = row.BufferBytes();
  return result;
}

results::Statistics ToResults(const measure::Statistics& stats) {
  results::Statistics out;
  out.count = stats.count;
  if (stats.count == 0) return out;
  out.min = stats.min;
  out.mean = stats.mean;
  out.median = stats.median;
  out.stddev = stats.stddev;
  out.ci95 = stats.ci95;
  out.p10 = stats.p10;
  out.p90 = stats.p90;
  return out;
}

void Fill(results::ResultRow& row, const measure::WorkloadOutcome& outcome) {
  switch (outcome.status) {
    case measure::Status::kRunning:
      row.status = results::RowStatus::kRunning;
      break;
    case measure::Status::kOk:
      row.status = results::RowStatus::kOk;
      break;
    case measure::Status::kError:
      row.status = results::RowStatus::kError;
      break;
  }
  row.message = outcome.message;
  row.stop_reason = measure::StopReasonName(outcome.stop_reason);
  row.times_ms = outcome.times_ms;
  row.throttled_ms = outcome.throttled_ms;
  row.stats = ToResults(outcome.stats);
  row.timing_method = outcome.timing_method;
  row.inner_iterations = outcome.work;
  row.dispatches_per_sample = outcome.dispatches_per_sample;
  row.work_per_dispatch = outcome.work_per_dispatch;
  row.metric_value = outcome.times_ms.empty() ? results::kNoValue : outcome.metric_value;
  row.flags = outcome.flags;
  row.notes = outcome.notes;
  row.linearity.clear();
  if (outcome.work != 0 && outcome.status == measure::Status::kOk) {
    row.linearity = measure::LinearityStateName(outcome.linearity.state);
    if (outcome.linearity.ratio) {
      row.linearity += fmt::format(": time x{:.2f} per work doubling", *outcome.linearity.ratio);
    }
    if (!outcome.linearity.reason.empty()) row.linearity += " (" + outcome.linearity.reason + ")";
  }
  row.flag_reasons.clear();
  for (const std::string& flag : outcome.flags) {
    if (flag == measure::kSuspectFlag) {
      row.flag_reasons.push_back("suspect: " + outcome.linearity.reason);
    } else if (flag == measure::kThrottledFlag) {
      row.flag_reasons.push_back("throttled: samples kept slowing down after every cooldown");
    } else if (flag == measure::kTimestampDemotedFlag) {
      row.flag_reasons.push_back(
          "timestamp-demoted: GPU timestamps disagreed with the wall clock twice in a row");
    } else {
      row.flag_reasons.push_back(flag);
    }
  }
}

/// Forwards scheduler progress to CeilingsProgress as results rows.
class ProgressAdapter final : public measure::SchedulerObserver {
 public:
  ProgressAdapter(std::vector<results::ResultRow>& rows, std::vector<size_t> row_of_workload,
                  CeilingsProgress* progress)
      : rows_(rows), row_of_workload_(std::move(row_of_workload)), progress_(progress) {}

  void OnSample(size_t index, const measure::WorkloadOutcome& so_far) override {
    Forward(index, so_far);
  }
  void OnSettled(size_t index, const measure::WorkloadOutcome& outcome) override {
    Forward(index, outcome);
  }
  void OnRoundDone(uint32_t round, size_t settled, size_t total, double eta_s) override {
    if (progress_) {
      progress_->OnRound(static_cast<int>(round), static_cast<int>(settled),
                         static_cast<int>(total), eta_s);
    }
  }

 private:
  void Forward(size_t index, const measure::WorkloadOutcome& outcome) {
    results::ResultRow& row = rows_[row_of_workload_[index]];
    Fill(row, outcome);
    if (progress_) progress_->OnRow(row);
  }

  std::vector<results::ResultRow>& rows_;
  std::vector<size_t> row_of_workload_;
  CeilingsProgress* progress_;
};

void Report(CeilingsProgress* progress, const results::ResultRow& row) {
  if (progress) progress->OnRow(row);
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

/// True for an ok row with a finite metric and no suspect flag: a figure a ceiling may use.
bool Trusted(const results::ResultRow& row) {
  return row.status == results::RowStatus::kOk && std::isfinite(row.metric_value) &&
         std::find(row.flags.begin(), row.flags.end(), "suspect") == row.flags.end();
}

double OkMetric(const std::vector<results::ResultRow>& rows, std::string_view id) {
  for (const results::ResultRow& row : rows) {
    if (row.id == id && Trusted(row)) return row.metric_value;
  }
  return results::kNoValue;
}

double PeakWithPrefix(const std::vector<results::ResultRow>& rows, std::string_view prefix) {
  double peak = results::kNoValue;
  for (const results::ResultRow& row : rows) {
    if (!StartsWith(row.id, prefix) || !Trusted(row)) continue;
    if (!std::isfinite(peak) || row.metric_value > peak) peak = row.metric_value;
  }
  return peak;
}

/// The FMA rows that define a type's peak, and the type a math row belongs to.
struct TypePeak {
  std::string_view type_prefix;  ///< rows of this type start with it, e.g. "f32-"
  std::string_view fma_prefix;   ///< its FMA/MAD rows, e.g. "f32-fma-"
  std::string_view key;          ///< the summary key of its peak
};
constexpr TypePeak kTypePeaks[] = {
    {"f32-", "f32-fma-", "f32_fma_flops"},
    {"f16-", "f16-fma-", "f16_fma_flops"},
    {"i32-", "i32-mad-", "i32_mad_ops"},
};

/// The highest share of its type's peak FMA rate a row may reach, for rows whose op can never
/// be cheaper than a multiply-add; 0 for other rows. Both kinds count 2 ops a step, as an FMA.
/// - Math (x = op(x) + b, cos(sin(x)), x = x/a + b): a step takes at least two instructions and
///   one of them is the op (a transcendental or a multi-instruction sequence), so a native-type
///   device stays at or below 0.5 of the FMA rate (H200 ≤ 0.13, lavapipe ≤ 0.44 with emulated
///   f16). Above 0.75 the op was removed: the x/a trap (a reciprocal hoisted out of the loop)
///   runs at about 1.0.
/// - Conversions: a device may fold a conversion into the neighbouring instruction, so only
///   beating the FMA rate itself (1.0) is impossible.
double MaxShareOfFma(std::string_view id) {
  constexpr std::string_view kMathOps[] = {"-div", "-sqrt", "-rsqrt", "-pow", "-sincos", "-log"};
  auto has = [&](std::string_view op) { return id.find(op) != std::string_view::npos; };
  if (std::any_of(std::begin(kMathOps), std::end(kMathOps), has)) return 0.75;
  if (has("-convert")) return 1.0;
  return 0;
}

/// A compute row above this multiple of the device's fastest FMA/MAD/dp4a rate is impossible:
/// no ALU op issues faster than a multiply-add, and the counts give a multiply-add 2 ops.
constexpr double kMaxRateOverFastestPeak = 2.0;

const TypePeak* TypeOf(std::string_view id) {
  for (const TypePeak& peak : kTypePeaks) {
    if (StartsWith(id, peak.type_prefix)) return &peak;
  }
  return nullptr;
}

}  // namespace

std::vector<results::ResultRow> RunCeilings(gpu::Context& context,
                                            std::vector<std::unique_ptr<CeilingRow>>& rows,
                                            const CeilingsRunOptions& options,
                                            CeilingsProgress* progress) {
  std::vector<results::ResultRow> results;
  std::vector<measure::Workload*> workloads;
  std::vector<size_t> row_of_workload;
  std::string lost_device;
  for (size_t index = 0; index < rows.size(); ++index) {
    CeilingRow& row = *rows[index];
    results.push_back(BaseRow(row));
    results::ResultRow& result = results.back();
    if (!lost_device.empty()) {
      result.status = results::RowStatus::kError;
      result.message = lost_device;
      Report(progress, result);
      continue;
    }
    if (std::optional<std::string> missing = row.MissingRequirement(context)) {
      result.status = results::RowStatus::kSkipped;
      result.message = *missing;
      Report(progress, result);
      continue;
    }
    try {
      row.Prepare(context);
      row.Verify(context);  // a wrong kernel is never timed
      // The problem's shape may depend on the device: read it again now that it is sized.
      result.rows = row.Rows();
      result.cols = row.Cols();
      result.buffer_bytes = row.BufferBytes();
      workloads.push_back(&row);
      row_of_workload.push_back(index);
    } catch (const DeviceLostError& error) {
      lost_device = error.what();
      result.status = results::RowStatus::kError;
      result.message = lost_device;
    } catch (const Error& error) {
      result.status = results::RowStatus::kError;
      result.message = error.what();
      row.Release();
    }
    Report(progress, result);
  }

  if (!workloads.empty()) {
    measure::GpuTimestampTimer timestamp_timer(context);
    measure::WallClockTimer wall_timer(context);
    bool timestamps = options.use_timestamps && context.HasFeature(gpu::Feature::kTimestampQuery);
    measure::Timer& timer = timestamps ? static_cast<measure::Timer&>(timestamp_timer)
                                       : static_cast<measure::Timer&>(wall_timer);
    measure::SteadyClock clock;
    ProgressAdapter adapter(results, row_of_workload, progress);
    std::vector<measure::WorkloadOutcome> outcomes = measure::RunSchedule(
        workloads, timer, clock, options.scheduler, options.calibration, &adapter);
    for (size_t i = 0; i < outcomes.size(); ++i) Fill(results[row_of_workload[i]], outcomes[i]);
  }
  for (auto& row : rows) row->Release();
  FlagImpossibleRates(results);
  return results;
}

std::map<std::string, double> SummarizeCeilings(const std::vector<results::ResultRow>& rows) {
  std::map<std::string, double> summary;
  auto put = [&](const std::string& key, double value) {
    if (std::isfinite(value)) summary[key] = value;
  };
  put("read_bandwidth_Bps", OkMetric(rows, "read-linear"));
  put("write_bandwidth_Bps", OkMetric(rows, "write-linear"));
  for (const TypePeak& peak : kTypePeaks)
    put(std::string(peak.key), PeakWithPrefix(rows, peak.fma_prefix));
  put("i8_dp4a_ops", std::max(OkMetric(rows, "i8-dp4a"), OkMetric(rows, "i8-dp4a-matvec")));
  for (const results::ResultRow& row : rows) {
    const TypePeak* type = TypeOf(row.id);
    if (type == nullptr || StartsWith(row.id, type->fma_prefix)) continue;
    if (!Trusted(row)) continue;
    auto fma = summary.find(std::string(type->key));
    if (fma == summary.end() || !(fma->second > 0)) continue;
    std::string key = row.id;
    std::replace(key.begin(), key.end(), '-', '_');
    put(key + "_ratio", row.metric_value / fma->second);
  }
  return summary;
}

void FlagImpossibleRates(std::vector<results::ResultRow>& rows) {
  std::map<std::string, double> summary = SummarizeCeilings(rows);
  double fastest_peak = 0;
  for (std::string_view key : {"f32_fma_flops", "f16_fma_flops", "i32_mad_ops", "i8_dp4a_ops"}) {
    if (auto peak = summary.find(std::string(key)); peak != summary.end()) {
      fastest_peak = std::max(fastest_peak, peak->second);
    }
  }
  auto flag = [](results::ResultRow& row, const std::string& reason) {
    if (std::find(row.flags.begin(), row.flags.end(), "suspect") != row.flags.end()) return;
    row.flags.push_back("suspect");
    row.flag_reasons.push_back("suspect: " + reason);
  };
  for (results::ResultRow& row : rows) {
    if (row.status != results::RowStatus::kOk || !std::isfinite(row.metric_value)) continue;
    const TypePeak* type = TypeOf(row.id);
    if (const double max_share = MaxShareOfFma(row.id); type != nullptr && max_share > 0) {
      auto fma = summary.find(std::string(type->key));
      if (fma != summary.end() && row.metric_value > max_share * fma->second) {
        flag(row, fmt::format("{} runs at {:.2f}x the device's peak {}, above the {:.2f}x its op "
                              "can reach: the op was likely hoisted out of the loop or folded",
                              row.id, row.metric_value / fma->second, type->key, max_share));
        continue;
      }
    }
    // No ALU row can run far above the fastest FMA/MAD/dp4a rate of the same device.
    if (row.category == "compute" && fastest_peak > 0 &&
        row.metric_value > kMaxRateOverFastestPeak * fastest_peak) {
      flag(row, fmt::format("{} claims {:.3g} ops/s, over {}x the device's fastest multiply-add "
                            "rate: its work was likely hoisted or folded",
                            row.id, row.metric_value, kMaxRateOverFastestPeak));
    }
  }
}

}  // namespace refract::suites::ceilings
