// `refract report` and `refract compare` as a user runs them, on the synthetic documents of
// tests/fixtures/ (no GPU needed): outputs, verdicts, exit codes and the errors for bad files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "testing/golden.h"
#include "testing/run_command.h"
#include "testing/scratch_folder.h"

namespace refract {
namespace {

using testing::RunCommand;

const std::string kRefract = REFRACT_BINARY;
const std::string kFixtures = std::string(REFRACT_SOURCE_DIR) + "/tests/fixtures/";

/// A fresh folder for one test's files, removed at the end.
class CliReportE2e : public ::testing::Test {
 protected:
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  /// Writes `document` to a file in the folder and returns its path.
  std::string Write(const std::string& name, const std::string& text) const {
    std::ofstream(Path(name)) << text;
    return Path(name);
  }

  testing::ScratchFolder scratch_{"e2e-report"};
  const std::filesystem::path& dir_ = scratch_.path();
};

nlohmann::json Kernels() {
  std::ifstream file(kFixtures + "kernels.json");
  return nlohmann::json::parse(file);
}

TEST_F(CliReportE2e, ReportWritesHtmlCsvAndMarkdown) {
  auto result = RunCommand(kRefract + " report " + kFixtures + "kernels.json " + kFixtures +
                           "sweep.json -o " + Path("r.html") + " --csv " + Path("r.csv") +
                           " --markdown " + Path("r.md"));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::string html = testing::ReadTextFile(Path("r.html"));
  EXPECT_NE(html.find("id=\"refract-data\""), std::string::npos);
  EXPECT_NE(html.find("matmul-f32-128x896x896-tuned"), std::string::npos);
  EXPECT_EQ(testing::ReadTextFile(Path("r.csv")).rfind("file,id,category,status", 0), 0u);
  EXPECT_NE(testing::ReadTextFile(Path("r.md")).find("## sweep.json: refract sweep on"),
            std::string::npos);
  EXPECT_NE(result.err.find("HTML report written to " + Path("r.html")), std::string::npos);
}

TEST_F(CliReportE2e, ReportMarkdownToStandardOutput) {
  auto result = RunCommand(kRefract + " report " + kFixtures + "decode.json --markdown -");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.rfind("## decode.json: refract decode on", 0), 0u) << result.out;
}

TEST_F(CliReportE2e, ReportWithoutAnOutputIsAUsageError) {
  auto result = RunCommand(kRefract + " report " + kFixtures + "decode.json");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("nothing to write"), std::string::npos) << result.err;
}

TEST_F(CliReportE2e, CorruptMissingForeignAndOldFilesAreNamedWithExitTwo) {
  const std::string corrupt = Write("corrupt.json", "{\"schema_version\": 2, \"results\": [");
  const std::string old = Write("old.json", "{\"schema_version\": 1, \"ceilings\": {}}");
  const std::string info =
      Write("info.json", "{\"schema_version\": 2, \"tool\": \"refract\", \"device\": {}}");
  const std::string partial = Write("partial.json", "{\"schema_version\": 2, \"tool\": 1}");
  const std::string missing = Path("missing.json");
  const std::vector<std::pair<std::string, std::string>> cases = {{corrupt, "not valid JSON"},
                                                                  {old, "schema_version 1"},
                                                                  {info, "device description"},
                                                                  {partial, "'tool'"},
                                                                  {missing, "cannot read"}};
  for (const auto& [file, problem] : cases) {
    for (const std::string& command :
         std::vector<std::string>{" report " + file + " -o " + Path("x.html"),
                                  " compare " + kFixtures + "kernels.json " + file}) {
      auto result = RunCommand(kRefract + command);
      EXPECT_EQ(result.exit_code, 2) << command << "\n" << result.err;
      EXPECT_NE(result.err.find(file), std::string::npos) << result.err;
      EXPECT_NE(result.err.find(problem), std::string::npos) << result.err;
    }
  }
  EXPECT_FALSE(std::filesystem::exists(Path("x.html")));
}

TEST_F(CliReportE2e, CompareOfARunWithItselfIsAllSame) {
  auto result = RunCommand(kRefract + " compare " + kFixtures + "kernels.json " + kFixtures +
                           "kernels.json --fail-on-slower");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("10 rows compared: 0 faster, 0 slower, 10 same, 0 noisy; 0 only in "
                            "base, 0 only in new, 2 not measured"),
            std::string::npos)
      << result.out;
}

TEST_F(CliReportE2e, CompareCallsASlowerRowAndFailsOnItWhenAsked) {
  nlohmann::json next = Kernels();
  nlohmann::json& row = next["results"][0];  // 5 samples with ~1 % noise
  for (auto& t : row["times_ms"]) t = t.get<double>() * 1.5;
  for (const char* key : {"min", "mean", "median", "p10", "p90"}) {
    row["stats"][key] = row["stats"][key].get<double>() * 1.5;
  }
  next["results"].erase(1);  // a row only in base
  const std::string path = Write("new.json", next.dump());
  const std::string command = kRefract + " compare " + kFixtures + "kernels.json " + path +
                              " --threshold 2 --html " + Path("c.html");
  auto result = RunCommand(command);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("SLOWER"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("×1.500"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("1 slower"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("1 only in base"), std::string::npos) << result.out;
  EXPECT_NE(testing::ReadTextFile(Path("c.html")).find("\"verdict\":\"SLOWER\""),
            std::string::npos);
  EXPECT_EQ(RunCommand(command + " --fail-on-slower").exit_code, 1);
}

TEST_F(CliReportE2e, CompareRefusesAnotherAdapterUnlessCrossDevice) {
  nlohmann::json other = Kernels();
  other["device"]["device"] = "NVIDIA H200";
  other["device"]["vendor_id"] = 0x10de;
  const std::string path = Write("h200.json", other.dump());
  auto refused = RunCommand(kRefract + " compare " + kFixtures + "kernels.json " + path);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("llvmpipe"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("NVIDIA H200"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("--cross-device"), std::string::npos) << refused.err;

  auto ratios =
      RunCommand(kRefract + " compare " + kFixtures + "kernels.json " + path + " --cross-device");
  ASSERT_EQ(ratios.exit_code, 0) << ratios.err;
  EXPECT_NE(ratios.out.find("10 rows on both devices"), std::string::npos) << ratios.out;
  EXPECT_NE(ratios.out.find("×1.000"), std::string::npos) << ratios.out;
}

TEST_F(CliReportE2e, OnlyOneOutputToStandardOutput) {
  auto result = RunCommand(kRefract + " report " + kFixtures + "decode.json --csv - --markdown -");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("standard output"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace refract
