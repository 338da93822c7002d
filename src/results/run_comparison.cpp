#include "results/run_comparison.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "base/lookup.h"
#include "results/mann_whitney.h"

namespace refract::results {
namespace {

double Percentile(const std::vector<double>& sorted, double p) {
  const double h = static_cast<double>(sorted.size() - 1) * p;
  const auto lower = static_cast<size_t>(std::floor(h));
  if (lower + 1 >= sorted.size()) return sorted.back();
  return sorted[lower] + (h - static_cast<double>(lower)) * (sorted[lower + 1] - sorted[lower]);
}

/// The time both rows are compared by: their best times when both are best-of-N rows, else
/// their medians (a best time and a median are not comparable).
std::string ComparedStatistic(const ResultRow& a, const ResultRow& b) {
  return a.statistic == "min" && b.statistic == "min" ? "min" : "median";
}

double TimeOf(const ResultRow& row, const std::string& statistic) {
  return statistic == "min" ? row.stats.min : row.stats.median;
}

bool Measured(const ResultRow& row) { return row.status == RowStatus::kOk; }

std::string Percent(double fraction) { return fmt::format("{:+.1f}%", 100 * fraction); }

std::string StatusNote(const ResultRow& row) {
  std::string note(ToString(row.status));
  if (!row.message.empty()) note += " (" + row.message + ")";
  return note;
}

/// The verdict and its reason for a row whose times and spreads are filled in.
void Judge(RowComparison& c, const ResultRow& base, const ResultRow& next,
           const CompareOptions& options) {
  const double change = c.ratio - 1;
  const double size = std::fabs(change);
  if (!(size > options.threshold)) {
    c.verdict = Verdict::kSame;
    c.reason =
        fmt::format("{} within the ±{:g}% threshold", Percent(change), 100 * options.threshold);
    return;
  }
  if (size <= c.noise) {
    c.verdict = Verdict::kNoisy;
    c.reason =
        fmt::format("{} is within the runs' noise (±{:.1f}%)", Percent(change), 100 * c.noise);
    return;
  }
  const Verdict called = change > 0 ? Verdict::kSlower : Verdict::kFaster;
  std::string past = fmt::format("{} past the ±{:g}% threshold and the ±{:.1f}% noise",
                                 Percent(change), 100 * options.threshold, 100 * c.noise);
  if (base.times_ms.size() < options.min_samples || next.times_ms.size() < options.min_samples) {
    c.verdict = called;
    c.reason = past + fmt::format(" (under {} samples a side: no U test)", options.min_samples);
    return;
  }
  const MannWhitneyResult test = MannWhitneyU(base.times_ms, next.times_ms);
  c.p_value = test.p_value;
  // u_a > u_b: the base samples tend to be the larger times, so the new run is faster.
  const Verdict leaning = test.u_a > test.u_b ? Verdict::kFaster : Verdict::kSlower;
  if (!(test.p_value < options.alpha)) {
    c.verdict = Verdict::kNoisy;
    c.reason = fmt::format("{} but the U test does not confirm it (p = {:.2g})", Percent(change),
                           test.p_value);
  } else if (leaning != called) {
    c.verdict = Verdict::kNoisy;
    c.reason = fmt::format("{} but most samples moved the other way (p = {:.2g})", Percent(change),
                           test.p_value);
  } else {
    c.verdict = called;
    c.reason = past + fmt::format(", p = {:.2g}", test.p_value);
  }
}

/// For each base row, the index of the new row with the same id (and params when
/// `match_params`), each new row used once.
std::vector<std::optional<size_t>> MatchRows(const RunRecord& base, const RunRecord& next,
                                             bool match_params) {
  std::vector<std::optional<size_t>> matches(base.rows.size());
  std::vector<bool> used(next.rows.size(), false);
  for (size_t i = 0; i < base.rows.size(); ++i) {
    for (size_t j = 0; j < next.rows.size(); ++j) {
      if (used[j] || next.rows[j].id != base.rows[i].id) continue;
      if (match_params && next.rows[j].params != base.rows[i].params) continue;
      matches[i] = j;
      used[j] = true;
      break;
    }
  }
  return matches;
}

std::string ParamsDifference(const Params& a, const Params& b) {
  std::string note;
  auto add = [&](const std::string& name, const std::string& from, const std::string& to) {
    note += (note.empty() ? "" : ", ") + name + " " + from + "→" + to;
  };
  for (const auto& [name, value] : a) {
    auto other = b.find(name);
    if (other == b.end()) {
      add(name, value.ToString(), "(none)");
    } else if (!(other->second == value)) {
      add(name, value.ToString(), other->second.ToString());
    }
  }
  for (const auto& [name, value] : b) {
    if (a.find(name) == a.end()) add(name, "(none)", value.ToString());
  }
  return note;
}

}  // namespace

std::string_view ToString(Verdict verdict) {
  static constexpr Entry<Verdict, std::string_view> kNames[] = {{Verdict::kSame, "SAME"},
                                                                {Verdict::kFaster, "FASTER"},
                                                                {Verdict::kSlower, "SLOWER"},
                                                                {Verdict::kNoisy, "NOISY"}};
  return Lookup(kNames, verdict, {"?"});
}

double RelativeSpread(const ResultRow& row) {
  if (row.times_ms.size() < 2 && row.stats.count < 2) return 0;
  double p10 = row.stats.p10, p90 = row.stats.p90, median = row.stats.median;
  if (!std::isfinite(p10) || !std::isfinite(p90) || !std::isfinite(median)) {
    if (row.times_ms.size() < 2) return 0;
    std::vector<double> sorted = row.times_ms;
    std::sort(sorted.begin(), sorted.end());
    p10 = Percentile(sorted, 0.1);
    p90 = Percentile(sorted, 0.9);
    median = Percentile(sorted, 0.5);
  }
  if (!(median > 0)) return 0;
  return std::max(0.0, p90 - p10) / (2 * median);
}

size_t Comparison::Count(Verdict verdict) const {
  return static_cast<size_t>(std::count_if(
      rows.begin(), rows.end(), [&](const RowComparison& c) { return c.verdict == verdict; }));
}

std::string Comparison::SummaryLine() const {
  return fmt::format(
      "{} rows compared: {} faster, {} slower, {} same, {} noisy; {} only in base, {} only in "
      "new, {} not measured",
      rows.size(), Count(Verdict::kFaster), Count(Verdict::kSlower), Count(Verdict::kSame),
      Count(Verdict::kNoisy), only_in_base.size(), only_in_new.size(), not_measured.size());
}

Comparison CompareRuns(const RunRecord& base, const RunRecord& next,
                       const CompareOptions& options) {
  Comparison comparison;
  comparison.options = options;
  const std::vector<std::optional<size_t>> matches = MatchRows(base, next, true);
  std::vector<bool> matched_new(next.rows.size(), false);
  for (size_t i = 0; i < base.rows.size(); ++i) {
    const ResultRow& b = base.rows[i];
    if (!matches[i]) {
      comparison.only_in_base.push_back({b.id, b.params, "only in base"});
      continue;
    }
    const ResultRow& n = next.rows[*matches[i]];
    matched_new[*matches[i]] = true;
    RowComparison c{.id = b.id, .category = b.category, .params = b.params};
    c.statistic = ComparedStatistic(b, n);
    c.base_ms = TimeOf(b, c.statistic);
    c.new_ms = TimeOf(n, c.statistic);
    if (!Measured(b) || !Measured(n) || !(c.base_ms > 0) || !(c.new_ms > 0)) {
      comparison.not_measured.push_back(
          {b.id, b.params, "base: " + StatusNote(b) + "; new: " + StatusNote(n)});
      continue;
    }
    c.ratio = c.new_ms / c.base_ms;
    c.base_spread = RelativeSpread(b);
    c.new_spread = RelativeSpread(n);
    c.noise = std::min(c.base_spread, c.new_spread);
    Judge(c, b, n, options);
    comparison.rows.push_back(std::move(c));
  }
  for (size_t j = 0; j < next.rows.size(); ++j) {
    if (!matched_new[j]) {
      comparison.only_in_new.push_back({next.rows[j].id, next.rows[j].params, "only in new"});
    }
  }
  return comparison;
}

bool SameAdapter(const DeviceDescription& a, const DeviceDescription& b) {
  return a.vendor == b.vendor && a.architecture == b.architecture && a.device == b.device &&
         a.vendor_id == b.vendor_id && a.device_id == b.device_id && a.backend == b.backend &&
         a.adapter_type == b.adapter_type;
}

std::string AdapterName(const DeviceDescription& device) {
  return fmt::format("{} ({} {}, {}, {:#06x}:{:#06x})", device.device, device.vendor,
                     device.architecture, device.backend, device.vendor_id, device.device_id);
}

std::vector<CrossDeviceRow> CompareAcrossDevices(const RunRecord& base, const RunRecord& next) {
  std::vector<CrossDeviceRow> rows;
  const std::vector<std::optional<size_t>> matches = MatchRows(base, next, false);
  for (size_t i = 0; i < base.rows.size(); ++i) {
    if (!matches[i]) continue;
    const ResultRow& b = base.rows[i];
    const ResultRow& n = next.rows[*matches[i]];
    if (!Measured(b) || !Measured(n)) continue;
    const std::string statistic = ComparedStatistic(b, n);
    CrossDeviceRow row{.id = b.id,
                       .unit = b.unit,
                       .base_metric = b.metric_value,
                       .new_metric = n.metric_value,
                       .base_ms = TimeOf(b, statistic),
                       .new_ms = TimeOf(n, statistic)};
    row.ratio = row.new_ms / row.base_ms;
    row.params_note = ParamsDifference(b.params, n.params);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace refract::results
