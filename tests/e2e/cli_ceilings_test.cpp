// `refract ceilings` as a user runs it.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "testing/run_command.h"

namespace refract {
namespace {

using testing::RunCommand;

const std::string kRefract = REFRACT_BINARY;
// Quick harness settings: the tests check behaviour, not figures.
const std::string kQuick =
    " --no-live --seed 7 --min-rounds 2 --max-rounds 3 --idle-gap-ms 0 --batch-ms 20";

TEST(CliCeilingsE2e, ReadLinearJsonHasAnOkRowWithAPositiveMetric) {
  auto result =
      RunCommand(kRefract + " ceilings --filter read-linear --buffer-mib 16 --json -" + kQuick);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  nlohmann::json document = nlohmann::json::parse(result.out);
  EXPECT_EQ(document.at("schema_version"), 2);
  EXPECT_EQ(document.at("command"), "ceilings");
  EXPECT_EQ(document.at("seed"), 7);
  ASSERT_EQ(document.at("results").size(), 1u);
  const nlohmann::json& row = document["results"][0];
  EXPECT_EQ(row.at("id"), "read-linear");
  EXPECT_EQ(row.at("status"), "ok");
  EXPECT_EQ(row.at("unit"), "B/s");
  EXPECT_EQ(row.at("params").at("buffer_bytes"), 16u << 20);
  EXPECT_GT(row.at("verification").at("elements").get<uint64_t>(), 0u);
  double metric = row.at("metric_value").get<double>();
  EXPECT_GT(metric, 0);
  EXPECT_FALSE(row.at("times_ms").empty());
  EXPECT_FALSE(row.at("timing_method").get<std::string>().empty());
  // The tables went to standard error, leaving standard output to the JSON document.
  EXPECT_NE(result.err.find("read-linear"), std::string::npos);
}

TEST(CliCeilingsE2e, NoTimestampsTimesEveryRowWithTheWallClock) {
  // The wall-clock path end to end: calibration and samples without GPU timestamps, for a row
  // without a work knob (bandwidth) and one with (an ALU chain, ramped and linearity-checked).
  auto result = RunCommand(kRefract +
                           " ceilings --filter read-linear,i32-mad-scalar --buffer-mib 16 "
                           "--no-timestamps --json -" +
                           kQuick);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  nlohmann::json document = nlohmann::json::parse(result.out);
  EXPECT_EQ(document.at("options").at("timestamps"), "off");
  ASSERT_EQ(document.at("results").size(), 2u);
  for (const nlohmann::json& row : document["results"]) {
    EXPECT_EQ(row.at("status"), "ok") << row.dump();
    EXPECT_EQ(row.at("timing_method"), "wall-clock") << row.at("id");
    EXPECT_GT(row.at("metric_value").get<double>(), 0) << row.at("id");
    EXPECT_FALSE(row.at("times_ms").empty()) << row.at("id");
  }
}

TEST(CliCeilingsE2e, JsonFileIsWrittenWhole) {
  std::filesystem::path path = std::filesystem::temp_directory_path() / "refract-e2e-ceilings.json";
  std::filesystem::remove(path);
  auto result = RunCommand(kRefract + " ceilings --filter write-linear --buffer-mib 16 --json " +
                           path.string() + kQuick);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  std::ifstream file(path);
  nlohmann::json document = nlohmann::json::parse(file);
  EXPECT_EQ(document.at("results").at(0).at("status"), "ok");
  EXPECT_NE(result.out.find("write-linear"), std::string::npos) << result.out;
  std::filesystem::remove(path);
}

TEST(CliCeilingsE2e, GlobMatchingNothingExitsTwo) {
  auto result = RunCommand(kRefract + " ceilings --filter 'no-such-row*'");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("no-such-row*"), std::string::npos) << result.err;
}

TEST(CliCeilingsE2e, BadFlagExitsTwo) {
  auto result = RunCommand(kRefract + " ceilings --max-rounds banana");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("max-rounds"), std::string::npos) << result.err;
}

TEST(CliCeilingsE2e, UnknownPresetAndCategoryExitTwo) {
  EXPECT_EQ(RunCommand(kRefract + " ceilings --preset huge --list").exit_code, 2);
  EXPECT_EQ(RunCommand(kRefract + " ceilings --category magic --list").exit_code, 2);
}

TEST(CliCeilingsE2e, ListShowsIdsCategoriesAndUnits) {
  auto result = RunCommand(kRefract + " ceilings --list --preset core");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("read-linear"), std::string::npos);
  EXPECT_NE(result.out.find("f16-fma-vec4"), std::string::npos);
  EXPECT_NE(result.out.find("shader-f16"), std::string::npos);
  EXPECT_NE(result.out.find("FLOP/s"), std::string::npos);
}

TEST(CliCeilingsE2e, UnwritableJsonPathFailsWithoutAPartialFile) {
  auto result = RunCommand(kRefract + " ceilings --filter write-linear --buffer-mib 16" + kQuick +
                           " --json /nonexistent-dir/out.json");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("/nonexistent-dir/out.json"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find("results written"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace refract
