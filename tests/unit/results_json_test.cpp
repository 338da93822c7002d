#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <functional>
#include <string>

#include "base/error.h"
#include "results/json_io.h"
#include "results/run_record.h"

namespace refract::results {
namespace {

using nlohmann::json;

DeviceDescription FullDevice() {
  DeviceDescription device;
  device.vendor = "nvidia";
  device.architecture = "hopper";
  device.device = "NVIDIA H200";
  device.description = "NVIDIA H200 (driver 550)";
  device.backend = "vulkan";
  device.adapter_type = "discrete-gpu";
  device.vendor_id = 0x10de;
  device.device_id = 0x2335;
  device.subgroup_min_size = 32;
  device.subgroup_max_size = 32;
  device.adapter_features = {"shader-f16", "subgroups", "timestamp-query"};
  device.device_features = {"shader-f16", "timestamp-query"};
  device.wgsl_language_features = {"packed_4x8_integer_dot_product"};
  device.adapter_limits = {{"maxBufferSize", 1ull << 40}, {"maxComputeWorkgroupSizeX", 1024}};
  device.device_limits = {{"maxBufferSize", 1ull << 31}, {"maxComputeWorkgroupSizeX", 256}};
  device.subgroup_matrix_configs = {
      SubgroupMatrixConfig{.component_type = "f16", .result_type = "f32", .m = 8, .n = 8, .k = 16}};
  device.enabled_toggles = {"allow_unsafe_apis"};
  device.disabled_toggles = {"lazy_clear_resource_on_first_use"};
  device.dawn_package = "bun-webgpu-linux-x64@0.1.7";
  return device;
}

ResultRow FullRow(const std::string& id) {
  ResultRow row;
  row.id = id;
  row.category = "compute";
  row.status = RowStatus::kOk;
  row.message = "a message";
  row.params = {{"threads", 1 << 20}, {"dtype", "f32"}, {"scale", 0.5}};
  row.verification = {
      .elements = 1024, .max_abs_error = 2.5e-7, .tolerance = {.absolute = 1e-5, .relative = 1e-4}};
  row.work_knob = 256;
  row.times_ms = {1.5, 1.25, 1.375};
  row.throttled_ms = {2.5};
  row.stats = Statistics{.count = 3,
                         .min = 1.25,
                         .mean = 1.375,
                         .median = 1.375,
                         .stddev = 0.125,
                         .ci95 = 0.3,
                         .p10 = 1.275,
                         .p90 = 1.475};
  row.stop_reason = "converged";
  row.metric_value = 6.45e13;
  row.unit = "FLOP/s";
  row.timing_method = "gpu-timestamp";
  row.flags = {"suspect", "throttled"};
  row.flag_reasons = {"faster than the roofline", "one sample over 1.2x the best"};
  row.work_per_dispatch = 1.7179869184e10;
  row.dispatches_per_sample = 12;
  row.description = "x = x*a + b, 8 chains";
  row.linearity = "linear: time x1.98 per work doubling";
  row.notes = {"work ramp stopped at the knob's maximum"};
  row.roofline = Roofline{.bound = "read-bandwidth",
                          .ceiling = 4.4e12,
                          .fraction = 0.71,
                          .flops = 1.2e8,
                          .bytes = 3.3e7,
                          .intensity = 3.6};
  row.speedup = 2.5;
  return row;
}

RunRecord FullRecord() {
  RunRecord record;
  record.tool_version = "0.1.0";
  record.dawn_package = "bun-webgpu-linux-x64@0.1.7";
  record.command = "ceilings";
  record.options = {{"--filter", "f32-*"}, {"--target-ms", "100"}};
  record.seed = 18446744073709551557ull;  // needs all 64 bits
  record.started_at = "2025-01-31T12:00:00Z";
  record.finished_at = "2025-01-31T12:01:00Z";
  record.wall_time_s = 60.5;
  record.device = FullDevice();
  record.rows = {FullRow("f32-fma-vec4"), FullRow("f32-fma-scalar")};
  record.rows[1].status = RowStatus::kError;
  record.summary = {{"read_bandwidth_Bps", 4.43e12}, {"f32_flops", 6.45e13}};
  return record;
}

void ExpectSameDevice(const DeviceDescription& a, const DeviceDescription& b) {
  EXPECT_EQ(a.vendor, b.vendor);
  EXPECT_EQ(a.architecture, b.architecture);
  EXPECT_EQ(a.device, b.device);
  EXPECT_EQ(a.description, b.description);
  EXPECT_EQ(a.backend, b.backend);
  EXPECT_EQ(a.adapter_type, b.adapter_type);
  EXPECT_EQ(a.vendor_id, b.vendor_id);
  EXPECT_EQ(a.device_id, b.device_id);
  EXPECT_EQ(a.subgroup_min_size, b.subgroup_min_size);
  EXPECT_EQ(a.subgroup_max_size, b.subgroup_max_size);
  EXPECT_EQ(a.adapter_features, b.adapter_features);
  EXPECT_EQ(a.device_features, b.device_features);
  EXPECT_EQ(a.wgsl_language_features, b.wgsl_language_features);
  EXPECT_EQ(a.adapter_limits, b.adapter_limits);
  EXPECT_EQ(a.device_limits, b.device_limits);
  ASSERT_EQ(a.subgroup_matrix_configs.size(), b.subgroup_matrix_configs.size());
  for (size_t i = 0; i < a.subgroup_matrix_configs.size(); ++i) {
    EXPECT_EQ(a.subgroup_matrix_configs[i].component_type,
              b.subgroup_matrix_configs[i].component_type);
    EXPECT_EQ(a.subgroup_matrix_configs[i].result_type, b.subgroup_matrix_configs[i].result_type);
    EXPECT_EQ(a.subgroup_matrix_configs[i].m, b.subgroup_matrix_configs[i].m);
    EXPECT_EQ(a.subgroup_matrix_configs[i].n, b.subgroup_matrix_configs[i].n);
    EXPECT_EQ(a.subgroup_matrix_configs[i].k, b.subgroup_matrix_configs[i].k);
  }
  EXPECT_EQ(a.enabled_toggles, b.enabled_toggles);
  EXPECT_EQ(a.disabled_toggles, b.disabled_toggles);
  EXPECT_EQ(a.dawn_package, b.dawn_package);
}

// Serializes to text and parses again, as a file on disk would.
RunRecord RoundTrip(const RunRecord& record) {
  return RunRecordFromJson(json::parse(ToJson(record).dump(2)));
}

std::string ErrorOf(const json& document) {
  try {
    RunRecordFromJson(document);
  } catch (const Error& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(ResultsJson, FullRecordRoundTripsEveryField) {
  const RunRecord original = FullRecord();
  const RunRecord copy = RoundTrip(original);
  EXPECT_EQ(copy.schema_version, kSchemaVersion);
  EXPECT_EQ(copy.tool, "refract");
  EXPECT_EQ(copy.tool_version, original.tool_version);
  EXPECT_EQ(copy.dawn_package, original.dawn_package);
  EXPECT_EQ(copy.command, original.command);
  EXPECT_EQ(copy.options, original.options);
  EXPECT_EQ(copy.seed, original.seed);
  EXPECT_EQ(copy.started_at, original.started_at);
  EXPECT_EQ(copy.finished_at, original.finished_at);
  EXPECT_EQ(copy.wall_time_s, original.wall_time_s);
  ExpectSameDevice(copy.device, original.device);
  ASSERT_EQ(copy.rows.size(), 2u);
  EXPECT_EQ(copy.rows[0], original.rows[1]);  // sorted by id
  EXPECT_EQ(copy.rows[1], original.rows[0]);
  EXPECT_EQ(copy.summary, original.summary);
}

TEST(ResultsJson, EveryKeyIsSnakeCase) {
  const json document = ToJson(FullRecord());
  // Every key of the layout, at any depth, is lower snake_case; map keys that are data (the
  // options', params', summary's and limits' names) are skipped.
  std::function<void(const json&, const std::string&)> check = [&](const json& value,
                                                                   const std::string& where) {
    if (value.is_array()) {
      for (const json& item : value) check(item, where + "[]");
      return;
    }
    if (!value.is_object()) return;
    for (const auto& [key, item] : value.items()) {
      for (char c : key)
        EXPECT_TRUE(std::islower(c) || std::isdigit(c) || c == '_') << where << key;
      if (key == "options" || key == "params" || key == "summary" || key == "limits" ||
          key == "adapter_limits") {
        continue;
      }
      check(item, where + key + ".");
    }
  };
  check(document, "");
  const json row = document["results"][0];
  for (const char* key : {"id",
                          "category",
                          "params",
                          "status",
                          "message",
                          "description",
                          "verification",
                          "times_ms",
                          "throttled_ms",
                          "stats",
                          "statistic",
                          "stop_reason",
                          "metric_value",
                          "unit",
                          "timing_method",
                          "flags",
                          "flag_reasons",
                          "work_per_dispatch",
                          "dispatches_per_sample",
                          "work_knob",
                          "linearity",
                          "notes",
                          "roofline",
                          "speedup"}) {
    EXPECT_TRUE(row.contains(key)) << key;
  }
  for (const char* key : {"min", "mean", "median", "stddev", "ci95", "p10", "p90"}) {
    EXPECT_TRUE(row["stats"].contains(key)) << key;
  }
  EXPECT_EQ(row["status"], "error");
  EXPECT_EQ(row["params"]["threads"], 1 << 20);
  EXPECT_EQ(row["params"]["dtype"], "f32");
  EXPECT_EQ(row["verification"]["tolerance"]["relative"], 1e-4);
}

TEST(ResultsJson, RowsWithoutARooflineWriteNull) {
  RunRecord record = FullRecord();
  record.rows.resize(1);
  record.rows[0].roofline.reset();
  record.rows[0].speedup = kNoValue;
  const json document = ToJson(record);
  EXPECT_TRUE(document["results"][0]["roofline"].is_null());
  EXPECT_TRUE(document["results"][0]["speedup"].is_null());
  const RunRecord copy = RunRecordFromJson(document);
  EXPECT_FALSE(copy.rows[0].roofline.has_value());
  EXPECT_TRUE(std::isnan(copy.rows[0].speedup));
}

TEST(ResultsJson, ParamsKeepTheirKindThroughAFile) {
  RunRecord record = FullRecord();
  record.rows.resize(1);
  record.rows[0].params = {
      {"m", 1}, {"eps", 1e-6}, {"variant", "tuned"}, {"big", int64_t{1} << 40}};
  const RunRecord copy = RoundTrip(record);
  EXPECT_EQ(copy.rows[0].params, record.rows[0].params);
  EXPECT_TRUE(copy.rows[0].params.at("m").IsInteger());
  EXPECT_TRUE(copy.rows[0].params.at("eps").IsReal());
}

TEST(ResultsJson, RowsAreSortedById) {
  RunRecord record = FullRecord();
  record.rows = {FullRow("read-linear"), FullRow("f32-div"), FullRow("i8-dp4a"),
                 FullRow("branch-none")};
  const json results = ToJson(record)["results"];
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0]["id"], "branch-none");
  EXPECT_EQ(results[1]["id"], "f32-div");
  EXPECT_EQ(results[2]["id"], "i8-dp4a");
  EXPECT_EQ(results[3]["id"], "read-linear");
}

TEST(ResultsJson, NonFiniteNumbersBecomeNullAndReadBackAsNan) {
  RunRecord record = FullRecord();
  record.rows.resize(1);
  record.rows[0].status = RowStatus::kError;  // a failed row states no figure
  record.rows[0].metric_value = std::nan("");
  record.rows[0].stats.ci95 = INFINITY;
  record.summary["broken_ratio"] = std::nan("");
  record.wall_time_s = std::nan("");

  const std::string text = ToJson(record).dump();
  EXPECT_EQ(text.find("NaN"), std::string::npos);
  EXPECT_EQ(text.find("nan"), std::string::npos);
  EXPECT_EQ(text.find("inf"), std::string::npos);
  const json document = json::parse(text);
  EXPECT_TRUE(document["results"][0]["metric_value"].is_null());
  EXPECT_TRUE(document["results"][0]["stats"]["ci95"].is_null());

  const RunRecord copy = RunRecordFromJson(document);
  EXPECT_TRUE(std::isnan(copy.rows[0].metric_value));
  EXPECT_TRUE(std::isnan(copy.rows[0].stats.ci95));
  EXPECT_TRUE(std::isnan(copy.summary.at("broken_ratio")));
  EXPECT_TRUE(std::isnan(copy.wall_time_s));
}

TEST(ResultsJson, ANonFiniteTimeIsWrittenAsNullAndRefusedOnReading) {
  // No sample can be missing: a null time is a broken document, not a NaN to carry on with.
  RunRecord record = FullRecord();
  record.rows[0].times_ms.back() = -INFINITY;
  const json document = json::parse(ToJson(record).dump());
  EXPECT_TRUE(document["results"][1]["times_ms"].back().is_null());  // written sorted by id
  const size_t last = record.rows[0].times_ms.size() - 1;
  EXPECT_NE(ErrorOf(document).find("field 'results[1].times_ms[" + std::to_string(last) +
                                   "]' of row 'f32-fma-vec4' is null"),
            std::string::npos)
      << ErrorOf(document);
}

TEST(ResultsJson, MissingFieldIsNamed) {
  json document = ToJson(FullRecord());
  document["results"][1].erase("times_ms");
  EXPECT_EQ(ErrorOf(document), "invalid refract JSON: field 'results[1].times_ms' is missing");

  document = ToJson(FullRecord());
  document["device"].erase("limits");
  EXPECT_EQ(ErrorOf(document), "invalid refract JSON: field 'device.limits' is missing");

  document = ToJson(FullRecord());
  document.erase("seed");
  EXPECT_EQ(ErrorOf(document), "invalid refract JSON: field 'seed' is missing");
}

TEST(ResultsJson, WronglyTypedFieldIsNamed) {
  json document = ToJson(FullRecord());
  document["results"][0]["stats"]["min"] = "fast";
  EXPECT_EQ(ErrorOf(document),
            "invalid refract JSON: field 'results[0].stats.min' is string, expected number or "
            "null");

  document = ToJson(FullRecord());
  document["results"][0]["work_knob"] = -3;
  EXPECT_NE(ErrorOf(document).find("'results[0].work_knob'"), std::string::npos);

  document = ToJson(FullRecord());
  document["results"][0]["params"]["dtype"] = json::array();
  EXPECT_NE(ErrorOf(document).find("'results[0].params.dtype' is array"), std::string::npos);

  document = ToJson(FullRecord());
  document["results"][0]["statistic"] = "mean";
  EXPECT_NE(ErrorOf(document).find("'results[0].statistic'"), std::string::npos);

  document = ToJson(FullRecord());
  document["results"][0]["status"] = "finished";
  EXPECT_NE(ErrorOf(document).find("'results[0].status'"), std::string::npos);

  EXPECT_NE(ErrorOf(json::array()).find("not an object"), std::string::npos);
}

TEST(ResultsJson, UnknownSchemaVersionIsRejected) {
  json document = ToJson(FullRecord());
  document["schema_version"] = 1;
  EXPECT_EQ(ErrorOf(document),
            "unsupported refract JSON schema_version 1 (this build reads version 2)");
  document.erase("schema_version");
  EXPECT_EQ(ErrorOf(document), "invalid refract JSON: field 'schema_version' is missing");
}

TEST(ResultsJson, DeviceInfoDocumentRoundTrips) {
  const json document = DeviceInfoDocument(FullDevice());
  EXPECT_EQ(document["schema_version"], kSchemaVersion);
  EXPECT_EQ(document["device"]["vendor_id"], 0x10de);
  EXPECT_EQ(document["device"]["limits"]["maxComputeWorkgroupSizeX"], 256);
  ExpectSameDevice(DeviceDescriptionFromInfoDocument(json::parse(document.dump())), FullDevice());
  ExpectSameDevice(DeviceDescriptionFromJson(ToJson(FullDevice())), FullDevice());
}

TEST(ResultsJson, RowStatusStrings) {
  for (RowStatus status :
       {RowStatus::kRunning, RowStatus::kOk, RowStatus::kSkipped, RowStatus::kError}) {
    EXPECT_EQ(RowStatusFromString(ToString(status)), status);
  }
  EXPECT_THROW(RowStatusFromString("done"), Error);
  EXPECT_FALSE(IsFinal(RowStatus::kRunning));
  EXPECT_TRUE(IsFinal(RowStatus::kSkipped));
}

}  // namespace
}  // namespace refract::results
