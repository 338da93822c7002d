#include "results/json_io.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "results/json_fields.h"
#include "results/record_checks.h"

namespace refract::results {
namespace json_fields {

// The layout: each record's fields in the order docs/RESULTS.md lists them.

const std::vector<Field<Statistics>>& FieldsOf(const Statistics&) {
  using S = Statistics;
  static const std::vector<Field<S>> kFields = {
      F("count", &S::count),   F("min", &S::min),   F("mean", &S::mean), F("median", &S::median),
      F("stddev", &S::stddev), F("ci95", &S::ci95), F("p10", &S::p10),   F("p90", &S::p90)};
  return kFields;
}

const std::vector<Field<Tolerance>>& FieldsOf(const Tolerance&) {
  static const std::vector<Field<Tolerance>> kFields = {F("absolute", &Tolerance::absolute),
                                                        F("relative", &Tolerance::relative)};
  return kFields;
}

const std::vector<Field<VerificationRecord>>& FieldsOf(const VerificationRecord&) {
  using V = VerificationRecord;
  static const std::vector<Field<V>> kFields = {
      F("elements", &V::elements), F("max_abs_error", &V::max_abs_error),
      F("tolerance", &V::tolerance), OptionalF("model_deviation", &V::model_deviation),
      OptionalF("mismatches", &V::mismatches)};
  return kFields;
}

const std::vector<Field<Roofline>>& FieldsOf(const Roofline&) {
  using R = Roofline;
  static const std::vector<Field<R>> kFields = {
      F("bound", &R::bound), F("ceiling", &R::ceiling), F("fraction", &R::fraction),
      F("flops", &R::flops), F("bytes", &R::bytes),     F("intensity", &R::intensity)};
  return kFields;
}

const std::vector<Field<AlternateTime>>& FieldsOf(const AlternateTime&) {
  using A = AlternateTime;
  static const std::vector<Field<A>> kFields = {F("what", &A::what), F("row_id", &A::row_id),
                                                F("time_ms", &A::time_ms),
                                                F("fraction", &A::fraction)};
  return kFields;
}

const std::vector<Field<DecodeKindTime>>& FieldsOf(const DecodeKindTime&) {
  using K = DecodeKindTime;
  static const std::vector<Field<K>> kFields = {F("kind", &K::kind),
                                                F("dispatches", &K::dispatches), F("ms", &K::ms),
                                                OptionalF("bytes", &K::bytes)};
  return kFields;
}

const std::vector<Field<DecodeFigures>>& FieldsOf(const DecodeFigures&) {
  using D = DecodeFigures;
  static const std::vector<Field<D>> kFields = {F("context", &D::context),
                                                F("tokens", &D::tokens),
                                                F("dispatches", &D::dispatches),
                                                F("passes", &D::passes),
                                                F("submits", &D::submits),
                                                F("wall_ms", &D::wall_ms),
                                                F("gpu_ms", &D::gpu_ms),
                                                F("host_ms", &D::host_ms),
                                                F("weight_bytes", &D::weight_bytes),
                                                F("cache_bytes", &D::cache_bytes),
                                                F("read_bandwidth", &D::read_bandwidth),
                                                F("bandwidth_bound_ms", &D::bandwidth_bound_ms),
                                                F("bandwidth_fraction", &D::bandwidth_fraction),
                                                F("dispatch_floor_ms", &D::dispatch_floor_ms),
                                                F("dispatch_bound_ms", &D::dispatch_bound_ms),
                                                F("dispatch_fraction", &D::dispatch_fraction),
                                                F("split_method", &D::split_method),
                                                F("split_ms", &D::split_ms),
                                                F("split", &D::split)};
  return kFields;
}

const std::vector<Field<ResultRow>>& FieldsOf(const ResultRow&) {
  using R = ResultRow;
  static const std::vector<Field<R>> kFields = {
      F("id", &R::id),
      F("category", &R::category),
      F("params", &R::params),
      F("status", &R::status),
      F("message", &R::message),
      F("description", &R::description),
      F("verification", &R::verification),
      F("times_ms", &R::times_ms),
      F("throttled_ms", &R::throttled_ms),
      F("stats", &R::stats),
      F("statistic", &R::statistic),
      F("stop_reason", &R::stop_reason),
      F("metric_value", &R::metric_value),
      F("unit", &R::unit),
      F("timing_method", &R::timing_method),
      F("flags", &R::flags),
      F("flag_reasons", &R::flag_reasons),
      F("work_per_dispatch", &R::work_per_dispatch),
      F("dispatches_per_sample", &R::dispatches_per_sample),
      F("work_knob", &R::work_knob),
      F("linearity", &R::linearity),
      F("notes", &R::notes),
      F("roofline", &R::roofline),
      F("speedup", &R::speedup),
      OptionalF("alternate", &R::alternate),
      OptionalF("decode", &R::decode)};
  return kFields;
}

const std::vector<Field<SubgroupMatrixConfig>>& FieldsOf(const SubgroupMatrixConfig&) {
  using C = SubgroupMatrixConfig;
  static const std::vector<Field<C>> kFields = {F("component_type", &C::component_type),
                                                F("result_type", &C::result_type), F("m", &C::m),
                                                F("n", &C::n), F("k", &C::k)};
  return kFields;
}

const std::vector<Field<DeviceDescription>>& FieldsOf(const DeviceDescription&) {
  using D = DeviceDescription;
  static const std::vector<Field<D>> kFields = {
      F("vendor", &D::vendor),
      F("architecture", &D::architecture),
      F("device", &D::device),
      F("description", &D::description),
      F("backend", &D::backend),
      F("adapter_type", &D::adapter_type),
      F("vendor_id", &D::vendor_id),
      F("device_id", &D::device_id),
      F("subgroup_min_size", &D::subgroup_min_size),
      F("subgroup_max_size", &D::subgroup_max_size),
      F("adapter_features", &D::adapter_features),
      F("features", &D::device_features),
      F("wgsl_language_features", &D::wgsl_language_features),
      F("adapter_limits", &D::adapter_limits),
      F("limits", &D::device_limits),
      F("subgroup_matrix_configs", &D::subgroup_matrix_configs),
      F("enabled_toggles", &D::enabled_toggles),
      F("disabled_toggles", &D::disabled_toggles),
      F("dawn_package", &D::dawn_package)};
  return kFields;
}

/// Beside these, a run document holds `schema_version` and `results` (written sorted by id).
const std::vector<Field<RunRecord>>& FieldsOf(const RunRecord&) {
  using R = RunRecord;
  static const std::vector<Field<R>> kFields = {F("tool", &R::tool),
                                                F("tool_version", &R::tool_version),
                                                F("dawn_package", &R::dawn_package),
                                                F("command", &R::command),
                                                F("options", &R::options),
                                                F("seed", &R::seed),
                                                F("started_at", &R::started_at),
                                                F("finished_at", &R::finished_at),
                                                F("wall_time_s", &R::wall_time_s),
                                                F("device", &R::device),
                                                F("summary", &R::summary)};
  return kFields;
}

}  // namespace json_fields

namespace {

using json_fields::As;
using json_fields::AsArray;
using json_fields::Fail;
using json_fields::Index;
using json_fields::Join;
using json_fields::Member;
using json_fields::TypeProblem;
using json_fields::Written;
using nlohmann::json;

ResultRow RowFromJson(const json& value, const std::string& where) {
  ResultRow row;
  As(value, where, row);
  if (row.statistic != "min" && row.statistic != "median") {
    Fail(Join(where, "statistic"), "is not one of min, median");
  }
  if (row.roofline && row.roofline->bound != "read-bandwidth" && row.roofline->bound != "fma") {
    Fail(Join(Join(where, "roofline"), "bound"), "is not one of read-bandwidth, fma");
  }
  return row;
}

void CheckSchemaVersion(const json& document) {
  const json& version = Member(document, "schema_version", "");
  if (!version.is_number_integer()) Fail("schema_version", TypeProblem(version, "integer"));
  if (version.get<int64_t>() != kSchemaVersion) {
    throw Error("unsupported refract JSON schema_version " + version.dump() +
                " (this build reads version " + std::to_string(kSchemaVersion) + ")");
  }
}

}  // namespace

json JsonNumber(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }

json ToJson(const Params& params) {
  json object = json::object();
  for (const auto& [name, value] : params) {
    if (value.IsInteger()) {
      object[name] = value.AsInteger();
    } else if (value.IsReal()) {
      object[name] = JsonNumber(value.AsReal());
    } else {
      object[name] = value.AsText();
    }
  }
  return object;
}

json ToJson(const DeviceDescription& device) { return Written(device); }

json ToJson(const ResultRow& row) { return Written(row); }

ResultRow ResultRowFromJson(const json& object, const std::string& where) {
  return RowFromJson(object, where);
}

DeviceDescription DeviceDescriptionFromJson(const json& object) {
  DeviceDescription device;
  As(object, "device", device);
  return device;
}

json DeviceInfoDocument(const DeviceDescription& device) {
  return {{"schema_version", kSchemaVersion}, {"tool", "refract"}, {"device", ToJson(device)}};
}

DeviceDescription DeviceDescriptionFromInfoDocument(const json& document) {
  CheckSchemaVersion(document);
  return DeviceDescriptionFromJson(Member(document, "device", ""));
}

json ToJson(const RunRecord& record) {
  std::vector<const ResultRow*> sorted;
  for (const ResultRow& row : record.rows) sorted.push_back(&row);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const ResultRow* a, const ResultRow* b) { return a->id < b->id; });
  json results = json::array();
  for (const ResultRow* row : sorted) results.push_back(Written(*row));
  json document = Written(record);
  document["schema_version"] = record.schema_version;
  document["results"] = std::move(results);
  return document;
}

RunRecord RunRecordFromJson(const json& document) {
  CheckSchemaVersion(document);
  RunRecord record;
  As(document, "", record);
  record.schema_version = kSchemaVersion;
  const json& results = AsArray(Member(document, "results", ""), "results");
  for (size_t i = 0; i < results.size(); ++i) {
    record.rows.push_back(RowFromJson(results[i], Index("results", i)));
  }
  CheckRecordMeaning(record);
  return record;
}

}  // namespace refract::results
