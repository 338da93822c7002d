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

json RowToJson(const ResultRow& row) {
  return {{"id", row.id},
          {"category", row.category},
          {"status", std::string(ToString(row.status))},
          {"message", row.message},
          {"rows", row.rows},
          {"cols", row.cols},
          {"innerIterations", row.inner_iterations},
          {"timesMs", Numbers(row.times_ms)},
          {"throttledMs", Numbers(row.throttled_ms)},
          {"stats", StatisticsToJson(row.stats)},
          {"stopReason", row.stop_reason},
          {"metricValue", Number(row.metric_value)},
          {"unit", row.unit},
          {"timingMethod", row.timing_method},
          {"flags", row.flags},
          {"flagReasons", row.flag_reasons},
          {"workPerDispatch", Number(row.work_per_dispatch)},
          {"dispatchesPerSample", row.dispatches_per_sample},
          {"bufferBytes", row.buffer_bytes},
          {"description", row.description},
          {"linearity", row.linearity},
          {"notes", row.notes}};
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

ResultRow RowFromJson(const json& object, const std::string& where) {
  AsObject(object, where);
  ResultRow row;
  row.id = GetString(object, "id", where);
  row.category = GetString(object, "category", where);
  try {
    row.status = RowStatusFromString(GetString(object, "status", where));
  } catch (const Error&) {
    Fail(Join(where, "status"), "is not one of running, ok, skipped, error");
  }
  row.message = GetString(object, "message", where);
  row.rows = GetUnsigned(object, "rows", where);
  row.cols = GetUnsigned(object, "cols", where);
  row.inner_iterations = GetUnsigned(object, "innerIterations", where);
  row.times_ms = GetDoubles(object, "timesMs", where);
  row.throttled_ms = GetDoubles(object, "throttledMs", where);
  row.stats = StatisticsFromJson(Field(object, "stats", where), Join(where, "stats"));
  row.stop_reason = GetString(object, "stopReason", where);
  row.metric_value = GetDouble(object, "metricValue", where);
  row.unit = GetString(object, "unit", where);
  row.timing_method = GetString(object, "timingMethod", where);
  row.flags = GetStrings(object, "flags", where);
  row.flag_reasons = GetStrings(object, "flagReasons", where);
  row.work_per_dispatch = GetDouble(object, "workPerDispatch", where);
  row.dispatches_per_sample = GetUnsigned(object, "dispatchesPerSample", where);
  row.buffer_bytes = GetUnsigned(object, "bufferBytes", where);
  row.description = GetString(object, "description", where);
  row.linearity = GetString(object, "linearity", where);
  row.notes = GetStrings(object, "notes", where);
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
  device.adapter_type = GetString(object, "adapterType", where);
  device.vendor_id = GetU32(object, "vendorId", where);
  device.device_id = GetU32(object, "deviceId", where);
  device.subgroup_min_size = GetU32(object, "subgroupMinSize", where);
  device.subgroup_max_size = GetU32(object, "subgroupMaxSize", where);
  device.adapter_features = GetStrings(object, "adapterFeatures", where);
  device.device_features = GetStrings(object, "features", where);
  device.wgsl_language_features = GetStrings(object, "wgslLanguageFeatures", where);
  device.adapter_limits = GetLimits(object, "adapterLimits", where);
  device.device_limits = GetLimits(object, "limits", where);
  const std::string configs_field = Join(where, "subgroupMatrixConfigs");
  const json& configs = AsArray(Field(object, "subgroupMatrixConfigs", where), configs_field);
  for (size_t i = 0; i < configs.size(); ++i) {
    const std::string config_where = Index(configs_field, i);
    AsObject(configs[i], config_where);
    SubgroupMatrixConfig config;
    config.component_type = GetString(configs[i], "componentType", config_where);
    config.result_type = GetString(configs[i], "resultType", config_where);
    config.m = GetU32(configs[i], "M", config_where);
    config.n = GetU32(configs[i], "N", config_where);
    config.k = GetU32(configs[i], "K", config_where);
    device.subgroup_matrix_configs.push_back(std::move(config));
  }
  device.enabled_toggles = GetStrings(object, "enabledToggles", where);
  device.disabled_toggles = GetStrings(object, "disabledToggles", where);
  device.dawn_package = GetString(object, "dawnPackage", where);
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
    configs.push_back({{"componentType", config.component_type},
                       {"resultType", config.result_type},
                       {"M", config.m},
                       {"N", config.n},
                       {"K", config.k}});
  }
  return {{"vendor", device.vendor},
          {"architecture", device.architecture},
          {"device", device.device},
          {"description", device.description},
          {"backend", device.backend},
          {"adapterType", device.adapter_type},
          {"vendorId", device.vendor_id},
          {"deviceId", device.device_id},
          {"subgroupMinSize", device.subgroup_min_size},
          {"subgroupMaxSize", device.subgroup_max_size},
          {"adapterFeatures", device.adapter_features},
          {"features", device.device_features},
          {"wgslLanguageFeatures", device.wgsl_language_features},
          {"adapterLimits", device.adapter_limits},
          {"limits", device.device_limits},
          {"subgroupMatrixConfigs", configs},
          {"enabledToggles", device.enabled_toggles},
          {"disabledToggles", device.disabled_toggles},
          {"dawnPackage", device.dawn_package}};
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

  json ceilings = json::object();
  for (const auto& [name, value] : record.ceilings) ceilings[name] = Number(value);

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
          {"ceilings", ceilings}};
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
  for (const auto& [name, value] : AsObject(Field(document, "ceilings", ""), "ceilings").items()) {
    record.ceilings[name] = AsDouble(value, "ceilings." + name);
  }
  return record;
}

}  // namespace refract::results
