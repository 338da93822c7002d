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

TEST(CliKernelsE2e, FilterKeepsTheSelectedRowsMatchingAGlob) {
  auto result = RunCommand(kRefract +
                           " kernels --list --kernel matmul-f32,matmul-q4 --filter"
                           " '*/m50/*,*/lm-head/m8/tuned-q8'");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  for (const char* id :
       {"matmul-f32/qwen2.5-0.5b/q+o/m50/baseline", "matmul-q4/qwen2.5-0.5b/down/m50/tuned",
        "matmul-q4/qwen2.5-0.5b/lm-head/m8/tuned-q8 "}) {
    EXPECT_NE(result.out.find(id), std::string::npos) << id << "\n" << result.out;
  }
  for (const char* absent : {"/m1/", "/m2048/", "/m4096/", "m8/baseline", "m8/tuned "}) {
    EXPECT_EQ(result.out.find(absent), std::string::npos) << absent << "\n" << result.out;
  }
  // A glob that matches none of the rows the other flags pick is an error, not an empty run.
  result = RunCommand(kRefract + " kernels --list --kernel add --filter '*/m50/*'");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("--filter '*/m50/*' matches none of the selected rows"),
            std::string::npos)
      << result.err;
}

TEST(CliKernelsE2e, UnknownValuesAreUsageErrors) {
  for (const char* args : {" --model llama", " --kernel conv2d", " --variant fast", " --phase warm",
                           " --preset tiny"}) {
    auto result = RunCommand(kRefract + " kernels --list" + args);
    EXPECT_EQ(result.exit_code, 2) << args;
    EXPECT_NE(result.err.find("unknown"), std::string::npos) << args << ": " << result.err;
  }
}

TEST(CliKernelsE2e, SetIsCheckedAgainstTheKernelsAxesOnce) {
  const struct {
    const char* args;
    const char* error;
  } cases[] = {
      // The GEMV's axes listed once though the q8 GEMV shares them, then the q8 GEMV's own.
      {" --kernel matmul-q4 --set WG=64",
       "matmul-q4 has no tunable axis 'WG' (its axes: wg, tpr, rows, subgroups, batch, adjacent, "
       "bm,"},
      {" --kernel matmul-q4 --set rows=64.5", "rows takes a whole number (1 to 8)"},
      {" --kernel matmul-q4 --set rows=-2", "rows takes a whole number (1 to 8)"},
      {" --kernel matmul-q4 --set rows=nan", "rows takes a whole number (1 to 8)"},
      {" --kernel matmul-q4 --set tpr=3", "tpr must be a power of two from 1 to 256 (invocations"},
      {" --kernel matmul-q4 --set batch=3", "batch must be a power of two from 1 to 4 (K blocks"},
      {" --kernel matmul-q4 --set batch=0", "batch must be a power of two from 1 to 4"},
      {" --kernel matmul-q4 --set adjacent=2", "adjacent must be 0 or 1"},
      {" --kernel attention --set v_tiles=3", "v_tiles must be 1 or 2"},
      {" --set wg=64", "--set applies to one kernel's tuned rows: name it with --kernel"},
      {" --kernel add,mul --set wg=64", "--set applies to one kernel's tuned rows"},
      {" --kernel conv2d --set wg=64", "unknown kernel 'conv2d'"},
  };
  for (const auto& c : cases) {
    auto result = RunCommand(kRefract + " kernels --list" + c.args);
    EXPECT_EQ(result.exit_code, 2) << c.args;
    EXPECT_NE(result.err.find(c.error), std::string::npos) << c.args << ": " << result.err;
    EXPECT_NE(result.err.find("run 'refract kernels --help'"), std::string::npos) << result.err;
  }
}

TEST(CliKernelsE2e, AConfigurationTheDeviceRefusesIsSkippedWithItsReason) {
  // 32 invocations keeping 1 vec4 each cannot hold a row of 896; WebGPU's default limits refuse
  // 512 invocations. Neither reason carries a source location.
  for (const std::string& args :
       {std::string(" --set wg=32 --set vpt=1"), std::string(" --set wg=512 --default-limits")}) {
    auto result = RunCommand(kRefract + " kernels --kernel rmsnorm --variant tuned --phase decode" +
                             args + " --json - --no-live --seed 1 --min-rounds 2 --max-rounds 3" +
                             " --idle-gap-ms 0 --batch-ms 20");
    ASSERT_EQ(result.exit_code, 0) << args << ": " << result.err;
    const nlohmann::json document = nlohmann::json::parse(result.out);
    int skipped = 0;
    for (const nlohmann::json& row : document.at("results")) {
      if (std::string(row.at("id")).rfind("rmsnorm/", 0) != 0) continue;
      EXPECT_EQ(row.at("status"), "skipped") << row.dump();
      const std::string reason = row.at("message");
      EXPECT_NE(reason.find(args.find("default") == std::string::npos
                                ? "keeps its row in registers"
                                : "maxComputeInvocationsPerWorkgroup"),
                std::string::npos)
          << reason;
      EXPECT_EQ(reason.find("src/"), std::string::npos) << reason;
      ++skipped;
    }
    EXPECT_EQ(skipped, 1) << args;
    EXPECT_EQ(document.at("options").at("set"),
              args.find("vpt") == std::string::npos ? "wg=512" : "vpt=1:wg=32");
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
