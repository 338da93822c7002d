#include "report/report_model.h"

#include <fmt/format.h>

#include <set>

#include "base/device_limits.h"
#include "report/model_json.h"
#include "report/row_format.h"
#include "report/units.h"

namespace refract::report {
namespace {

using nlohmann::json;
using results::ResultRow;
using results::RowStatus;

/// A device limit worth a line on the device card, with WebGPU's default (what a browser page
/// gets: base/device_limits.h) beside it.
struct KeyLimit {
  const char* name;
  bool bytes;  ///< shown in KiB / MiB / GiB
};
constexpr KeyLimit kKeyLimits[] = {
    {"maxComputeInvocationsPerWorkgroup", false}, {"maxComputeWorkgroupSizeX", false},
    {"maxComputeWorkgroupSizeY", false},          {"maxComputeWorkgroupSizeZ", false},
    {"maxComputeWorkgroupStorageSize", true},     {"maxComputeWorkgroupsPerDimension", false},
    {"maxStorageBufferBindingSize", true},        {"maxBufferSize", true},
    {"maxStorageBuffersPerShaderStage", false},   {"maxUniformBufferBindingSize", true},
};

uint64_t WebGpuDefault(std::string_view name) {
  for (const WebGpuLimit& limit : WebGpuDefaultLimitTable()) {
    if (limit.name == name) return limit.default_value;
  }
  return 0;
}

std::string LimitText(uint64_t value, bool bytes) {
  if (!bytes) return std::to_string(value);
  constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double scaled = static_cast<double>(value);
  size_t unit = 0;
  while (scaled >= 1024 && unit + 1 < std::size(kUnits)) {
    scaled /= 1024;
    ++unit;
  }
  return fmt::format("{:.4g} {}", scaled, kUnits[unit]);
}

json DeviceJson(const DeviceDescription& device) {
  json limits = json::array();
  for (const KeyLimit& limit : kKeyLimits) {
    auto it = device.device_limits.find(limit.name);
    if (it == device.device_limits.end()) continue;
    limits.push_back({{"name", limit.name},
                      {"value", it->second},
                      {"text", LimitText(it->second, limit.bytes)},
                      {"default_text", LimitText(WebGpuDefault(limit.name), limit.bytes)}});
  }
  const std::set<std::string> enabled(device.device_features.begin(), device.device_features.end());
  json adapter_only = json::array();
  for (const std::string& feature : device.adapter_features) {
    if (!enabled.count(feature)) adapter_only.push_back(feature);
  }
  std::string subgroups =
      device.subgroup_min_size == device.subgroup_max_size
          ? std::to_string(device.subgroup_min_size)
          : fmt::format("{}–{}", device.subgroup_min_size, device.subgroup_max_size);
  return {{"name", device.device},
          {"vendor", device.vendor},
          {"architecture", device.architecture},
          {"driver", device.description},
          {"backend", device.backend},
          {"adapter_type", device.adapter_type},
          {"ids", fmt::format("{:#06x}:{:#06x}", device.vendor_id, device.device_id)},
          {"subgroup_sizes", subgroups},
          {"features", device.device_features},
          {"adapter_only_features", adapter_only},
          {"wgsl_language_features", device.wgsl_language_features},
          {"limits", limits},
          {"enabled_toggles", device.enabled_toggles},
          {"disabled_toggles", device.disabled_toggles},
          {"dawn_package", device.dawn_package}};
}

json FileJson(size_t index, const LabeledRun& run) {
  const results::RunRecord& r = run.record;
  json summary = json::array();
  for (const auto& [key, value] : r.summary) {
    summary.push_back(
        {{"key", key}, {"value", JsonNumber(value)}, {"text", FormatSummaryValue(key, value)}});
  }
  int ok = 0, skipped = 0, failed = 0;
  for (const ResultRow& row : r.rows) {
    ok += row.status == RowStatus::kOk;
    skipped += row.status == RowStatus::kSkipped;
    failed += row.status == RowStatus::kError;
  }
  return {
      {"index", index},
      {"label", run.label},
      {"command", r.command},
      {"tool", r.tool},
      {"tool_version", r.tool_version},
      {"dawn_package", r.dawn_package},
      {"seed", r.seed},
      {"started_at", r.started_at},
      {"finished_at", r.finished_at},
      {"wall_time_text", FormatDuration(r.wall_time_s * 1000)},
      {"options", r.options},
      {"device", DeviceJson(r.device)},
      {"summary", summary},
      {"counts", {{"rows", r.rows.size()}, {"ok", ok}, {"skipped", skipped}, {"error", failed}}}};
}

json RowJson(size_t file, const ResultRow& row) {
  json roofline = nullptr;
  if (row.roofline) {
    roofline = {{"bound", row.roofline->bound},
                {"fraction", JsonNumber(row.roofline->fraction)},
                {"fraction_text", std::isfinite(row.roofline->fraction)
                                      ? fmt::format("{:.0f}% of {}", 100 * row.roofline->fraction,
                                                    row.roofline->bound)
                                      : std::string(kMissing)},
                {"intensity", JsonNumber(row.roofline->intensity)}};
  }
  const bool measured = row.status == RowStatus::kOk || row.status == RowStatus::kRunning;
  return {{"file", file},
          {"id", row.id},
          {"category", row.category},
          {"params", results::ToJson(row.params)},
          {"params_text", results::ParamsText(row.params)},
          {"status", std::string(results::ToString(row.status))},
          {"message", row.message},
          {"description", row.description},
          {"metric", JsonNumber(row.metric_value)},
          {"metric_text", measured ? MetricText(row) : ""},
          {"unit", row.unit},
          {"statistic", row.statistic},
          {"time_label", TimeLabel(row)},
          {"time_ms", JsonNumber(HeadlineTimeMs(row))},
          {"time_text", measured ? TimeText(row) : ""},
          {"p10_ms", JsonNumber(row.stats.p10)},
          {"p90_ms", JsonNumber(row.stats.p90)},
          {"ci_text", measured ? CiPercentText(row.stats) : ""},
          {"kept", row.times_ms.size()},
          {"throttled", row.throttled_ms.size()},
          {"timing_method", row.timing_method},
          {"stop_reason", row.stop_reason},
          {"verification_text", VerificationText(row.verification)},
          {"verification",
           {{"elements", row.verification.elements},
            {"max_abs_error", JsonNumber(row.verification.max_abs_error)}}},
          {"flags", row.flags},
          {"flag_reasons", row.flag_reasons},
          {"notes", row.notes},
          {"linearity", row.linearity},
          {"speedup", JsonNumber(row.speedup)},
          {"speedup_text", SpeedupText(row.speedup)},
          {"roofline", roofline}};
}

std::string Title(const std::vector<LabeledRun>& runs) {
  if (runs.size() == 1) {
    return fmt::format("refract {} on {}", runs[0].record.command, runs[0].record.device.device);
  }
  std::string labels;
  for (const LabeledRun& run : runs) labels += (labels.empty() ? "" : ", ") + run.label;
  return fmt::format("refract report: {} runs ({})", runs.size(), labels);
}

}  // namespace

double HeadlineTimeMs(const ResultRow& row) {
  return row.statistic == "median" ? row.stats.median : row.stats.min;
}

std::string ParamText(const ResultRow& row, const std::string& name) {
  auto it = row.params.find(name);
  return it == row.params.end() ? "" : it->second.ToString();
}

json BuildReportModel(const std::vector<LabeledRun>& runs) {
  json files = json::array();
  json rows = json::array();
  std::set<std::string> param_names;
  for (size_t i = 0; i < runs.size(); ++i) {
    files.push_back(FileJson(i, runs[i]));
    for (const ResultRow& row : runs[i].record.rows) {
      rows.push_back(RowJson(i, row));
      for (const auto& [name, value] : row.params) param_names.insert(name);
    }
  }
  return {{"title", Title(runs)},
          {"files", files},
          {"param_names", param_names},
          {"rows", rows},
          {"roofline", BuildRooflineModel(runs)},
          {"sweeps", BuildSweepModels(runs)},
          {"decode", BuildDecodeModels(runs)},
          {"side_by_side", BuildSideBySideModel(runs)},
          {"comparison", nullptr}};
}

}  // namespace refract::report
