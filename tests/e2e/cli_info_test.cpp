// The built binary, as a user runs it: help, bad arguments, `info`, `smoke`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "testing/run_command.h"

namespace refract {
namespace {

using testing::RunCommand;

const std::string kRefract = REFRACT_BINARY;

TEST(CliE2e, HelpListsTheSubcommands) {
  auto result = RunCommand(kRefract + " --help");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("info"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("smoke"), std::string::npos) << result.out;
}

TEST(CliE2e, NoSubcommandIsAUsageError) {
  auto result = RunCommand(kRefract);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_FALSE(result.err.empty());
}

TEST(CliE2e, BadFlagExitsTwoWithAMessage) {
  auto result = RunCommand(kRefract + " info --no-such-flag");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("no-such-flag"), std::string::npos) << result.err;
}

TEST(CliE2e, BadAdapterValueExitsTwo) {
  auto result = RunCommand(kRefract + " info --adapter fastest");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("adapter"), std::string::npos) << result.err;
}

TEST(CliE2e, InfoJsonParsesAndNamesTheAdapter) {
  auto result = RunCommand(kRefract + " info --json -");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  nlohmann::json document = nlohmann::json::parse(result.out);
  EXPECT_TRUE(document.contains("schema_version"));
  const nlohmann::json& device = document.contains("device") ? document["device"] : document;
  EXPECT_FALSE(device.at("device").get<std::string>().empty());
  EXPECT_EQ(device.at("backend"), "vulkan");
  EXPECT_FALSE(device.at("adapter_features").empty());
}

TEST(CliE2e, InfoTableShowsTheAdapterAndLimits) {
  auto result = RunCommand(kRefract + " info");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("vulkan"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("maxStorageBufferBindingSize"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("timestamp-query"), std::string::npos) << result.out;
}

TEST(CliE2e, InfoPrintsTheProfileKeyAndListsTheAdapterOfEachChoice) {
  auto info = RunCommand(kRefract + " info");
  ASSERT_EQ(info.exit_code, 0) << info.err;
  const size_t at = info.out.find("profile key: ");
  ASSERT_NE(at, std::string::npos) << info.out;
  const std::string key = info.out.substr(at + 13, info.out.find('\n', at) - at - 13);
  EXPECT_NE(key.find(" / vulkan / subgroups "), std::string::npos) << key;

  auto listed = RunCommand(kRefract + " info --list-adapters");
  ASSERT_EQ(listed.exit_code, 0) << listed.out << listed.err;
  for (const char* choice : {"high-performance", "low-power", "fallback"}) {
    EXPECT_NE(listed.out.find(std::string("--adapter ") + choice), std::string::npos) << listed.out;
  }
  // The default choice's adapter is listed with the key `info` printed.
  EXPECT_NE(listed.out.find("  profile key: " + key + "\n"), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("distinct Vulkan adapter"), std::string::npos) << listed.out;
  // What would mean nothing beside the listing is refused, naming the option.
  for (const char* extra : {"--json -", "--adapter low-power"}) {
    auto refused = RunCommand(kRefract + " info --list-adapters " + extra);
    EXPECT_EQ(refused.exit_code, 2) << extra << refused.out;
    EXPECT_NE(refused.err.find("excludes"), std::string::npos) << extra << refused.err;
  }
}

TEST(CliE2e, SmokeVerifiesAndPrintsATime) {
  auto result = RunCommand(kRefract + " smoke --elements 65536 --no-live");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  // The final table's row: verified (else it would be an error row), timed, ok.
  EXPECT_NE(result.out.find("smoke-scale-add  ok"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("sample-count"), std::string::npos) << result.out;
}

}  // namespace
}  // namespace refract
