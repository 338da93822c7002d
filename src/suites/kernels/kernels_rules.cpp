#include "suites/kernels/kernels_rules.h"

#include <cmath>
#include <map>

#include "suites/ceilings/ceilings_rules.h"

namespace refract::suites::kernels {
namespace {

constexpr std::string_view kBaselineSuffix = "/baseline";
// The tuned variants a speed-up is stated for, and the q8 GEMV's row with its quantizer.
constexpr std::string_view kTunedSuffixes[] = {"/tuned", "/tuned-q8"};
constexpr std::string_view kQ8Suffix = "/tuned-q8";
constexpr std::string_view kWithQuantizer = "+quantize";

bool Usable(const results::ResultRow& row) {
  return row.status == results::RowStatus::kOk && std::isfinite(row.metric_value) &&
         row.metric_value > 0;
}

double Get(const results::Summary& summary, const std::string& key) {
  auto found = summary.find(key);
  return found == summary.end() ? results::kNoValue : found->second;
}

}  // namespace

RooflineCeilings CeilingsFromSummary(const results::Summary& summary) {
  return {.read_bandwidth_Bps = Get(summary, "read_bandwidth_Bps"),
          .fma_flops = Get(summary, "f32_fma_flops")};
}

void PlaceOnRoofline(std::vector<results::ResultRow>& rows, const RooflineCeilings& ceilings) {
  const bool known = std::isfinite(ceilings.read_bandwidth_Bps) &&
                     ceilings.read_bandwidth_Bps > 0 && std::isfinite(ceilings.fma_flops) &&
                     ceilings.fma_flops > 0;
  for (results::ResultRow& row : rows) {
    if (!row.roofline || !Usable(row) || !known) continue;
    results::Roofline& roofline = *row.roofline;
    const double compute_s = roofline.flops / ceilings.fma_flops;
    const double memory_s = roofline.bytes / ceilings.read_bandwidth_Bps;
    const bool compute_bound = compute_s > memory_s;
    roofline.bound = compute_bound ? "fma" : "read-bandwidth";
    roofline.ceiling = compute_bound ? ceilings.fma_flops : ceilings.read_bandwidth_Bps;
    const double measured_s = row.work_per_dispatch / row.metric_value;
    roofline.fraction = std::max(compute_s, memory_s) / measured_s;
  }
}

void SetSpeedups(std::vector<results::ResultRow>& rows) {
  std::map<std::string, const results::ResultRow*> baselines;
  for (const results::ResultRow& row : rows) {
    if (row.id.ends_with(kBaselineSuffix) && Usable(row)) {
      baselines[row.id.substr(0, row.id.size() - kBaselineSuffix.size())] = &row;
    }
  }
  for (results::ResultRow& row : rows) {
    for (std::string_view suffix : kTunedSuffixes) {
      if (!row.id.ends_with(suffix) || !Usable(row)) continue;
      auto baseline = baselines.find(row.id.substr(0, row.id.size() - suffix.size()));
      if (baseline != baselines.end())
        row.speedup = row.metric_value / baseline->second->metric_value;
    }
  }
}

void SetQuantizerAlternates(std::vector<results::ResultRow>& rows) {
  std::map<std::string, const results::ResultRow*> with_quantizer;
  for (const results::ResultRow& row : rows) {
    if (row.id.ends_with(kWithQuantizer) && Usable(row)) with_quantizer[row.id] = &row;
  }
  for (results::ResultRow& row : rows) {
    if (!row.id.ends_with(kQ8Suffix) || !Usable(row)) continue;
    auto other = with_quantizer.find(row.id + std::string(kWithQuantizer));
    if (other == with_quantizer.end()) continue;
    const results::ResultRow& timed = *other->second;
    results::AlternateTime alternate{.what = "with the quantizer as its own dispatch",
                                     .row_id = other->first,
                                     .time_ms = timed.work_per_dispatch / timed.metric_value * 1e3};
    if (row.roofline && std::isfinite(row.roofline->fraction)) {
      // The same work: the floor over the other time.
      const double headline_ms = row.work_per_dispatch / row.metric_value * 1e3;
      alternate.fraction = row.roofline->fraction * headline_ms / alternate.time_ms;
    }
    row.alternate = alternate;
  }
}

RooflineCeilings KernelsRules::Ceilings(const std::vector<results::ResultRow>& rows) const {
  if (loaded_) return *loaded_;
  return CeilingsFromSummary(ceilings::SummarizeCeilings(rows));
}

void KernelsRules::Review(std::vector<results::ResultRow>& rows) const {
  ceilings::FlagImpossibleRates(rows);  // the session's ceilings rows, as `refract ceilings`
  PlaceOnRoofline(rows, Ceilings(rows));
  SetSpeedups(rows);
  SetQuantizerAlternates(rows);
}

results::Summary KernelsRules::Summarize(const std::vector<results::ResultRow>& rows) const {
  results::Summary summary = ceilings::SummarizeCeilings(rows);
  const RooflineCeilings used = Ceilings(rows);
  if (std::isfinite(used.read_bandwidth_Bps)) {
    summary["roofline_read_bandwidth_Bps"] = used.read_bandwidth_Bps;
  }
  if (std::isfinite(used.fma_flops)) summary["roofline_fma_flops"] = used.fma_flops;
  return summary;
}

}  // namespace refract::suites::kernels
