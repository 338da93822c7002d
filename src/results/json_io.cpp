#include "results/json_io.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "base/error.h"

namespace refract::results {
namespace {

using nlohmann::json;

// ---- writing ----

json Number(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }

json Numbers(const std::vector<double>& values) {
  json array = json::array();
  for (double value : values) array.push_back(Number(value));
  return array;
}

json StatisticsToJson(const Statistics& stats) {
  return {{"count", stats.count},           {"min", Number(stats.min)},
          {"mean", Number(stats.mean)},     {"median", Number(stats.median)},
          {"stddev", Number(stats.stddev)}, {"ci95", Number(stats.ci95)},
          {"p10", Number(stats.p10)},       {"p90", Number(stats.p90)}};
}

json ParamsToJson(const Params& params) {
  json object = json::object();
  for (const auto& [name, value] : params) {
    if (value.IsInteger()) {
      object[name] = value.AsInteger();
    } else if (value.IsReal()) {
      object[name] = Number(value.AsReal());
    } else {
      object[name] = value.AsText();
    }
  }
  return object;
}

json VerificationToJson(const VerificationRecord& record) {
  return {{"elements", record.elements},
          {"max_abs_error", Number(record.max_abs_error)},
          {"tolerance",
           {{"absolute", Number(record.tolerance.absolute)},
            {"relative", Number(record.tolerance.relative)}}}};
}

json RooflineToJson(const Roofline& roofline) {
  return {{"bound", roofline.bound},
          {"ceiling", Number(roofline.ceiling)},
          {"fraction", Number(roofline.fraction)},
          {"flops", Number(roofline.flops)},
          {"bytes", Number(roofline.bytes)},
          {"intensity", Number(roofline.intensity)}};
}

json RowToJson(const ResultRow& row) {
  return {{"id", row.id},
          {"category", row.category},
          {"params", ParamsToJson(row.params)},
          {"status", std::string(ToString(row.status))},
          {"message", row.message},
          {"description", row.description},
          {"verification", VerificationToJson(row.verification)},
          {"times_ms", Numbers(row.times_ms)},
          {"throttled_ms", Numbers(row.throttled_ms)},
          {"stats", StatisticsToJson(row.stats)},
          {"statistic", row.statistic},
          {"stop_reason", row.stop_reason},
          {"metric_value", Number(row.metric_value)},
          {"unit", row.unit},
          {"timing_method", row.timing_method},
          {"flags", row.flags},
          {"flag_reasons", row.flag_reasons},
          {"work_per_dispatch", Number(row.work_per_dispatch)},
          {"dispatches_per_sample", row.dispatches_per_sample},
          {"work_knob", row.work_knob},
          {"linearity", row.linearity},
          {"notes", row.notes},
          {"roofline", row.roofline ? RooflineToJson(*row.roofline) : json(nullptr)},
          {"speedup", Number(row.speedup)}};
}

// ---- reading: every accessor names the field it failed on ----

std::string Join(const std::string& where, const std::string& key) {
  return where.empty() ? key : where + "." + key;
}

[[noreturn]] void Fail(const std::string& field, const std::string& problem) {
  throw Error("invalid refract JSON: field '" + field + "' " + problem);
}

const json& Field(const json& object, const std::string& key, const std::string& where) {
  if (!object.is_object()) Fail(where.empty() ? "(document)" : where, "is not an object");
  auto it = object.find(key);
  if (it == object.end()) Fail(Join(where, key), "is missing");
  return *it;
}

std::string TypeProblem(const json& value, const char* expected) {
  return std::string("is ") + value.type_name() + ", expected " + expected;
}

std::string AsString(const json& value, const std::string& field) {
  if (!value.is_string()) Fail(field, TypeProblem(value, "string"));
  return value.get<std::string>();
}

uint64_t AsUnsigned(const json& value, const std::string& field) {
  if (!value.is_number_unsigned()) Fail(field, TypeProblem(value, "non-negative integer"));
  return value.get<uint64_t>();
}

double AsDouble(const json& value, const std::string& field) {
  if (value.is_null()) return kNoValue;
  if (!value.is_number()) Fail(field, TypeProblem(value, "number or null"));
  return value.get<double>();
}

const json& AsArray(const json& value, const std::string& field) {
  if (!value.is_array()) Fail(field, TypeProblem(value, "array"));
  return value;
}

const json& AsObject(const json& value, const std::string& field) {
  if (!value.is_object()) Fail(field, TypeProblem(value, "object"));
  return value;
}

std::string Index(const std::string& field, size_t i) {
  return field + "[" + std::to_string(i) + "]";
}

std::string GetString(const json& object, const std::string& key, const std::string& where) {
  return AsString(Field(object, key, where), Join(where, key));
}

uint64_t GetUnsigned(const json& object, const std::string& key, const std::string& where) {
  return AsUnsigned(Field(object, key, where), Join(where, key));
}

uint32_t GetU32(const json& object, const std::string& key, const std::string& where) {
  uint64_t value = GetUnsigned(object, key, where);
  if (value > UINT32_MAX) Fail(Join(where, key), "does not fit in 32 bits");
  return static_cast<uint32_t>(value);
}

double GetDouble(const json& object, const std::string& key, const std::string& where) {
  return AsDouble(Field(object, key, where), Join(where, key));
}

std::vector<double> GetDoubles(const json& object, const std::string& key,
                               const std::string& where) {
  const std::string field = Join(where, key);
  const json& array = AsArray(Field(object, key, where), field);
  std::vector<double> values;
  for (size_t i = 0; i < array.size(); ++i) values.push_back(AsDouble(array[i], Index(field, i)));
  return values;
}

std::vector<std::string> GetStrings(const json& object, const std::string& key,
                                    const std::string& where) {
  const std::string field = Join(where, key);
  const json& array = AsArray(Field(object, key, where), field);
  std::vector<std::string> values;
  for (size_t i = 0; i < array.size(); ++i) values.push_back(AsString(array[i], Index(field, i)));
  return values;
}

std::map<std::string, uint64_t> GetLimits(const json& object, const std::string& key,
                                          const std::string& where) {
  const std::string field = Join(where, key);
  std::map<std::string, uint64_t> limits;
  for (const auto& [name, value] : AsObject(Field(object, key, where), field).items()) {
    limits[name] = AsUnsigned(value, Join(field, name));
  }
  return limits;
}

Statistics StatisticsFromJson(const json& object, const std::string& where) {
  AsObject(object, where);
  Statistics stats;
  stats.count = GetUnsigned(object, "count", where);
  stats.min = GetDouble(object, "min", where);
  stats.mean = GetDouble(object, "mean", where);
  stats.median = GetDouble(object, "median", where);
  stats.stddev = GetDouble(object, "stddev", where);
  stats.ci95 = GetDouble(object, "ci95", where);
  stats.p10 = GetDouble(object, "p10", where);
  stats.p90 = GetDouble(object, "p90", where);
  return stats;
}

Params ParamsFromJson(const json& value, const std::string& field) {
  Params params;
  for (const auto& [name, item] : AsObject(value, field).items()) {
    const std::string where = Join(field, name);
    if (item.is_number_integer()) {
      params[name] = item.get<int64_t>();
    } else if (item.is_number() || item.is_null()) {
      params[name] = AsDouble(item, where);
    } else if (item.is_string()) {
      params[name] = item.get<std::string>();
    } else {
      Fail(where, TypeProblem(item, "number or string"));
    }
  }
  return params;
}

VerificationRecord VerificationFromJson(const json& object, const std::string& where) {
  AsObject(object, where);
  VerificationRecord record;
  record.elements = GetUnsigned(object, "elements", where);
  record.max_abs_error = GetDouble(object, "max_abs_error", where);
  const std::string tolerance_where = Join(where, "tolerance");
  const json& tolerance = AsObject(Field(object, "tolerance", where), tolerance_where);
  record.tolerance.absolute = GetDouble(tolerance, "absolute", tolerance_where);
  record.tolerance.relative = GetDouble(tolerance, "relative", tolerance_where);
  return record;
}

Roofline RooflineFromJson(const json& object, const std::string& where) {
  AsObject(object, where);
  Roofline roofline;
  roofline.bound = GetString(object, "bound", where);
  if (roofline.bound != "read-bandwidth" && roofline.bound != "fma") {
    Fail(Join(where, "bound"), "is not one of read-bandwidth, fma");
  }
  roofline.ceiling = GetDouble(object, "ceiling", where);
  roofline.fraction = GetDouble(object, "fraction", where);
  roofline.flops = GetDouble(object, "flops", where);
  roofline.bytes = GetDouble(object, "bytes", where);
  roofline.intensity = GetDouble(object, "intensity", where);
  return roofline;
}

ResultRow RowFromJson(const json& object, const std::string& where) {
  AsObject(object, where);
  ResultRow row;
  row.id = GetString(object, "id", where);
  row.category = GetString(object, "category", where);
  row.params = ParamsFromJson(Field(object, "params", where), Join(where, "params"));
  try {
    row.status = RowStatusFromString(GetString(object, "status", where));
  } catch (const Error&) {
    Fail(Join(where, "status"), "is not one of running, ok, skipped, error");
  }
  row.message = GetString(object, "message", where);
  row.description = GetString(object, "description", where);
  row.verification =
      VerificationFromJson(Field(object, "verification", where), Join(where, "verification"));
  row.times_ms = GetDoubles(object, "times_ms", where);
  row.throttled_ms = GetDoubles(object, "throttled_ms", where);
  row.stats = StatisticsFromJson(Field(object, "stats", where), Join(where, "stats"));
  row.statistic = GetString(object, "statistic", where);
  if (row.statistic != "min" && row.statistic != "median") {
    Fail(Join(where, "statistic"), "is not one of min, median");
  }
  row.stop_reason = GetString(object, "stop_reason", where);
  row.metric_value = GetDouble(object, "metric_value", where);
  row.unit = GetString(object, "unit", where);
  row.timing_method = GetString(object, "timing_method", where);
  row.flags = GetStrings(object, "flags", where);
  row.flag_reasons = GetStrings(object, "flag_reasons", where);
  row.work_per_dispatch = GetDouble(object, "work_per_dispatch", where);
  row.dispatches_per_sample = GetUnsigned(object, "dispatches_per_sample", where);
  row.work_knob = GetUnsigned(object, "work_knob", where);
  row.linearity = GetString(object, "linearity", where);
  row.notes = GetStrings(object, "notes", where);
  const json& roofline = Field(object, "roofline", where);
  if (!roofline.is_null()) row.roofline = RooflineFromJson(roofline, Join(where, "roofline"));
  row.speedup = GetDouble(object, "speedup", where);
  return row;
}

DeviceDescription DeviceFromJson(const json& object, const std::string& where) {
  AsObject(object, where);
  DeviceDescription device;
  device.vendor = GetString(object, "vendor", where);
  device.architecture = GetString(object, "architecture", where);
  device.device = GetString(object, "device", where);
  device.description = GetString(object, "description", where);
  device.backend = GetString(object, "backend", where);
  device.adapter_type = GetString(object, "adapter_type", where);
  device.vendor_id = GetU32(object, "vendor_id", where);
  device.device_id = GetU32(object, "device_id", where);
  device.subgroup_min_size = GetU32(object, "subgroup_min_size", where);
  device.subgroup_max_size = GetU32(object, "subgroup_max_size", where);
  device.adapter_features = GetStrings(object, "adapter_features", where);
  device.device_features = GetStrings(object, "features", where);
  device.wgsl_language_features = GetStrings(object, "wgsl_language_features", where);
  device.adapter_limits = GetLimits(object, "adapter_limits", where);
  device.device_limits = GetLimits(object, "limits", where);
  const std::string configs_field = Join(where, "subgroup_matrix_configs");
  const json& configs = AsArray(Field(object, "subgroup_matrix_configs", where), configs_field);
  for (size_t i = 0; i < configs.size(); ++i) {
    const std::string config_where = Index(configs_field, i);
    AsObject(configs[i], config_where);
    SubgroupMatrixConfig config;
    config.component_type = GetString(configs[i], "component_type", config_where);
    config.result_type = GetString(configs[i], "result_type", config_where);
    config.m = GetU32(configs[i], "m", config_where);
    config.n = GetU32(configs[i], "n", config_where);
    config.k = GetU32(configs[i], "k", config_where);
    device.subgroup_matrix_configs.push_back(std::move(config));
  }
  device.enabled_toggles = GetStrings(object, "enabled_toggles", where);
  device.disabled_toggles = GetStrings(object, "disabled_toggles", where);
  device.dawn_package = GetString(object, "dawn_package", where);
  return device;
}

void CheckSchemaVersion(const json& document) {
  const json& version = Field(document, "schema_version", "");
  if (!version.is_number_integer()) Fail("schema_version", TypeProblem(version, "integer"));
  if (version.get<int64_t>() != kSchemaVersion) {
    throw Error("unsupported refract JSON schema_version " + version.dump() +
                " (this build reads version " + std::to_string(kSchemaVersion) + ")");
  }
}

}  // namespace

json ToJson(const DeviceDescription& device) {
  json configs = json::array();
  for (const SubgroupMatrixConfig& config : device.subgroup_matrix_configs) {
    configs.push_back({{"component_type", config.component_type},
                       {"result_type", config.result_type},
                       {"m", config.m},
                       {"n", config.n},
                       {"k", config.k}});
  }
  return {{"vendor", device.vendor},
          {"architecture", device.architecture},
          {"device", device.device},
          {"description", device.description},
          {"backend", device.backend},
          {"adapter_type", device.adapter_type},
          {"vendor_id", device.vendor_id},
          {"device_id", device.device_id},
          {"subgroup_min_size", device.subgroup_min_size},
          {"subgroup_max_size", device.subgroup_max_size},
          {"adapter_features", device.adapter_features},
          {"features", device.device_features},
          {"wgsl_language_features", device.wgsl_language_features},
          {"adapter_limits", device.adapter_limits},
          {"limits", device.device_limits},
          {"subgroup_matrix_configs", configs},
          {"enabled_toggles", device.enabled_toggles},
          {"disabled_toggles", device.disabled_toggles},
          {"dawn_package", device.dawn_package}};
}

DeviceDescription DeviceDescriptionFromJson(const json& object) {
  return DeviceFromJson(object, "device");
}

json DeviceInfoDocument(const DeviceDescription& device) {
  return {{"schema_version", kSchemaVersion}, {"tool", "refract"}, {"device", ToJson(device)}};
}

DeviceDescription DeviceDescriptionFromInfoDocument(const json& document) {
  CheckSchemaVersion(document);
  return DeviceFromJson(Field(document, "device", ""), "device");
}

json ToJson(const RunRecord& record) {
  std::vector<const ResultRow*> sorted;
  for (const ResultRow& row : record.rows) sorted.push_back(&row);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const ResultRow* a, const ResultRow* b) { return a->id < b->id; });
  json results = json::array();
  for (const ResultRow* row : sorted) results.push_back(RowToJson(*row));

  json summary = json::object();
  for (const auto& [name, value] : record.summary) summary[name] = Number(value);

  return {{"schema_version", record.schema_version},
          {"tool", record.tool},
          {"tool_version", record.tool_version},
          {"dawn_package", record.dawn_package},
          {"command", record.command},
          {"options", record.options},
          {"seed", record.seed},
          {"started_at", record.started_at},
          {"finished_at", record.finished_at},
          {"wall_time_s", Number(record.wall_time_s)},
          {"device", ToJson(record.device)},
          {"results", results},
          {"summary", summary}};
}

RunRecord RunRecordFromJson(const json& document) {
  CheckSchemaVersion(document);
  RunRecord record;
  record.schema_version = kSchemaVersion;
  record.tool = GetString(document, "tool", "");
  record.tool_version = GetString(document, "tool_version", "");
  record.dawn_package = GetString(document, "dawn_package", "");
  record.command = GetString(document, "command", "");
  for (const auto& [name, value] : AsObject(Field(document, "options", ""), "options").items()) {
    record.options[name] = AsString(value, "options." + name);
  }
  record.seed = GetUnsigned(document, "seed", "");
  record.started_at = GetString(document, "started_at", "");
  record.finished_at = GetString(document, "finished_at", "");
  record.wall_time_s = GetDouble(document, "wall_time_s", "");
  record.device = DeviceFromJson(Field(document, "device", ""), "device");
  const json& results = AsArray(Field(document, "results", ""), "results");
  for (size_t i = 0; i < results.size(); ++i) {
    record.rows.push_back(RowFromJson(results[i], Index("results", i)));
  }
  for (const auto& [name, value] : AsObject(Field(document, "summary", ""), "summary").items()) {
    record.summary[name] = AsDouble(value, "summary." + name);
  }
  return record;
}

}  // namespace refract::results
