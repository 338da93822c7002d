// `refract kernels` as a user runs it: the listing, the selection flags and their errors, and a
// tiny run to JSON with the roofline and the speed-up filled.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "testing/run_command.h"

namespace refract {
namespace {

using testing::RunCommand;

const std::string kRefract = REFRACT_BINARY;

TEST(CliKernelsE2e, ListShowsEveryKernelOfTheModel) {
  auto result = RunCommand(kRefract + " kernels --list");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  for (const char* id : {"matmul-f32/qwen2.5-0.5b/q+o/m1/tuned", "matmul-q4/reference/ffn/m1/tuned",
                         "embedding/qwen2.5-0.5b/t2048/baseline", "add/qwen2.5-0.5b/t50/tuned"}) {
    EXPECT_NE(result.out.find(id), std::string::npos) << id;
  }
  EXPECT_EQ(result.out.find("embeddinggemma2"), std::string::npos);
}

TEST(CliKernelsE2e, SelectionFlagsNarrowTheList) {
  auto result = RunCommand(kRefract +
                           " kernels --list --model embeddinggemma2 --kernel add --variant tuned"
                           " --phase decode");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("add/embeddinggemma2/t1/tuned"), std::string::npos) << result.out;
  EXPECT_EQ(result.out.find("baseline"), std::string::npos) << result.out;
  EXPECT_EQ(result.out.find("/t128/"), std::string::npos) << result.out;
}

TEST(CliKernelsE2e, UnknownValuesAreUsageErrors) {
  for (const char* args : {" --model llama", " --kernel conv2d", " --variant fast", " --phase warm",
                           " --preset tiny"}) {
    auto result = RunCommand(kRefract + " kernels --list" + args);
    EXPECT_EQ(result.exit_code, 2) << args;
    EXPECT_NE(result.err.find("unknown"), std::string::npos) << args << ": " << result.err;
  }
}

TEST(CliKernelsE2e, ATinyRunPlacesItsRowsOnTheRoofline) {
  auto result = RunCommand(kRefract +
                           " kernels --kernel add --phase decode --json - --no-live --seed 1"
                           " --min-rounds 2 --max-rounds 3 --idle-gap-ms 0 --batch-ms 20");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const nlohmann::json document = nlohmann::json::parse(result.out);
  EXPECT_EQ(document.at("command"), "kernels");
  int kernel_rows = 0;
  for (const nlohmann::json& row : document.at("results")) {
    ASSERT_EQ(row.at("status"), "ok") << row.dump();
    const std::string id = row.at("id");
    if (id.rfind("add/", 0) != 0) continue;  // the run's own ceilings rows
    ++kernel_rows;
    EXPECT_EQ(row.at("params").at("kernel"), "add");
    EXPECT_EQ(row.at("params").at("phase"), "decode");
    EXPECT_EQ(row.at("roofline").at("bound"), "read-bandwidth");
    EXPECT_GT(row.at("roofline").at("fraction").get<double>(), 0);
    if (id.ends_with("/tuned")) {
      EXPECT_GT(row.at("speedup").get<double>(), 0);
    }
  }
  EXPECT_EQ(kernel_rows, 2);  // Qwen at T = 1: baseline and tuned
  EXPECT_GT(document.at("summary").at("roofline_read_bandwidth_Bps").get<double>(), 0);
}

}  // namespace
}  // namespace refract
