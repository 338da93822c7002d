// What refract guarantees when a run does not end normally (docs/GUARANTEES.md): a kernel that
// never finishes (the watchdog), an injected device loss, SIGINT and SIGTERM. Each run is the
// built binary on a few small rows; the verdicts do not depend on the machine's speed.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.h"
#include "testing/child_process.h"
#include "testing/planted_kernel.h"
#include "testing/scratch_folder.h"

namespace refract {
namespace {

namespace fs = std::filesystem;
using testing::ChildProcess;

const std::string kRefract = REFRACT_BINARY;

std::string ReadFile(const fs::path& path) {
  std::ifstream file(path);
  std::stringstream content;
  content << file.rdbuf();
  return content.str();
}

/// The rows of the JSON document at `path` by id; fails the test when it is not a whole document.
std::map<std::string, nlohmann::json> RowsOf(const fs::path& path) {
  std::map<std::string, nlohmann::json> rows;
  const nlohmann::json document = nlohmann::json::parse(ReadFile(path));  // throws if cut short
  EXPECT_EQ(document.at("schema_version"), 2);
  for (const nlohmann::json& row : document.at("results")) rows[row.at("id")] = row;
  return rows;
}

/// True for a row that kept its measurement: ok, with samples and a positive figure.
bool KeptItsFigures(const nlohmann::json& row) {
  return row.at("status") == "ok" && !row.at("times_ms").empty() &&
         row.at("metric_value").is_number() && row.at("metric_value").get<double>() > 0;
}

std::string Message(const nlohmann::json& row) { return row.at("message").get<std::string>(); }

// Rows without a work knob, batches capped at one dispatch and `samples` samples each: every
// run takes the same GPU passes in the same order, whatever the machine's speed.
std::vector<std::string> FewRows(const fs::path& json, const std::string& filter,
                                 const std::string& samples = "1",
                                 const std::string& idle_gap_ms = "0") {
  return {kRefract,    "ceilings",      "--filter",
          filter,      "--buffer-mib",  "4",
          "--samples", samples,         "--max-dispatches",
          "1",         "--idle-gap-ms", idle_gap_ms,
          "--no-live", "--seed",        "1",
          "--json",    json.string()};
}

// ---- Hangs ----------------------------------------------------------------------------------

// ceil_atomic's `direct` entry, planted to spin for ever (with a side effect, so the compiler
// keeps the loop) from its third dispatch of the timed problem on: its two calibration passes
// (one batch probe at the cap of one dispatch, one warm-up) finish, its first sample hangs. The
// timed problem's bins are never checked, so the check on the small problem still passes.
std::string EndlessHistogramKernel() {
  const std::string head =
      "fn direct(@builtin(global_invocation_id) gid: vec3<u32>,\n"
      "          @builtin(num_workgroups) groups: vec3<u32>) {\n";
  const std::string hang =
      "  if (gid.x == 0u && params.count > 100003u) {\n"
      "    let earlier = atomicAdd(&bins[31], 1u << 24u) >> 24u;\n"
      "    if (earlier >= 2u) {\n"
      "      loop {\n"
      "        atomicAdd(&bins[30], 1u);\n"
      "        if (atomicLoad(&bins[29]) == 0xffffffffu) {\n"
      "          break;\n"
      "        }\n"
      "      }\n"
      "    }\n"
      "  }\n";
  return testing::EditedKernel("ceil_atomic", head, head + hang);
}

TEST(CliLifecycleE2e, AKernelThatNeverFinishesEndsTheRunWithItsRowsWrittenAndExitThree) {
  testing::ScratchFolder dir("lifecycle");
  const fs::path json = dir.path() / "out.json";
  testing::PlantedKernel planted("ceil_atomic", EndlessHistogramKernel());
  std::vector<std::string> args = FewRows(json, "read-linear,write-linear,atomic-direct");
  args.insert(args.end(), {"--timeout-s", "5"});
  ChildProcess refract(args);
  const int exit_code = refract.Wait();
  ASSERT_EQ(exit_code, 3) << refract.out() << refract.err();

  std::map<std::string, nlohmann::json> rows = RowsOf(json);
  ASSERT_EQ(rows.size(), 3u);
  const nlohmann::json& hung = rows.at("atomic-direct");
  EXPECT_EQ(hung.at("status"), "error");
  EXPECT_NE(Message(hung).find("did not finish within 5 s: the kernel may not terminate"),
            std::string::npos)
      << Message(hung);
  // The round measures the rows in a seeded order; those before the hang keep their figures
  // (with seed 1, both), the others say why they have none.
  int kept = 0;
  for (const char* id : {"read-linear", "write-linear"}) {
    const nlohmann::json& row = rows.at(id);
    if (KeptItsFigures(row)) {
      ++kept;
    } else {
      EXPECT_EQ(row.at("status"), "error") << id;
      EXPECT_EQ(Message(row), kNotRunAfterHang) << id;
    }
  }
  EXPECT_GE(kept, 1);
  // The terminal got its final table too.
  EXPECT_NE(refract.out().find("did not finish within 5 s"), std::string::npos) << refract.out();
}

TEST(CliLifecycleE2e, TimeoutZeroWaitsWithoutADeadline) {
  ChildProcess refract({kRefract, "smoke", "--elements", "65536", "--timeout-s", "0", "--json", "-",
                        "--no-live", "--seed", "1"});
  ASSERT_EQ(refract.Wait(), 0) << refract.err();
  const nlohmann::json document = nlohmann::json::parse(refract.out());
  EXPECT_EQ(document.at("results").at(0).at("status"), "ok");
  EXPECT_EQ(document.at("options").at("timeout_s"), "0");
}

// ---- Device loss ----------------------------------------------------------------------------

TEST(CliLifecycleE2e, AnInjectedDeviceLossKeepsTheRowsBeforeItAndFailsTheRest) {
  testing::ScratchFolder dir("lifecycle");
  const fs::path json = dir.path() / "out.json";
  // Preparing and verifying the two rows takes 4 passes, calibrating them 4 (one batch probe
  // at the cap of one dispatch and one warm-up each); the round's first sample is pass 9, so
  // the device is lost just before the round's second sample.
  ChildProcess refract(FewRows(json, "read-linear,write-linear"),
                       {"REFRACT_INJECT_DEVICE_LOSS=10"});
  ASSERT_EQ(refract.Wait(), 1) << refract.out() << refract.err();

  std::map<std::string, nlohmann::json> rows = RowsOf(json);
  ASSERT_EQ(rows.size(), 2u);
  int kept = 0, lost = 0;
  for (const auto& [id, row] : rows) {
    if (KeptItsFigures(row)) {
      ++kept;
      EXPECT_EQ(row.at("times_ms").size(), 1u) << id;
    } else {
      ++lost;
      EXPECT_EQ(row.at("status"), "error") << id;
      EXPECT_NE(Message(row).find("the GPU device was lost"), std::string::npos) << Message(row);
      EXPECT_NE(Message(row).find("REFRACT_INJECT_DEVICE_LOSS"), std::string::npos) << Message(row);
      EXPECT_TRUE(row.at("metric_value").is_null()) << id;
    }
  }
  EXPECT_EQ(kept, 1);
  EXPECT_EQ(lost, 1);
}

// ---- Interrupts -----------------------------------------------------------------------------

class CliInterruptE2e : public ::testing::TestWithParam<int> {};

TEST_P(CliInterruptE2e, StopsAfterTheCurrentMeasurementWritesTheRowsAndExits130) {
  testing::ScratchFolder dir("lifecycle");
  const fs::path json = dir.path() / "out.json";
  // A minute-long pause before the second measurement: the signal comes during it, after the
  // first row settled, however slow the machine.
  ChildProcess refract(FewRows(json, "read-linear,write-linear", "1", "60000"));
  ASSERT_TRUE(refract.WaitForOutput(": ok ")) << refract.out() << refract.err();
  refract.Signal(GetParam());
  ASSERT_EQ(refract.Wait(), 130) << refract.out() << refract.err();

  std::map<std::string, nlohmann::json> rows = RowsOf(json);
  ASSERT_EQ(rows.size(), 2u);
  int kept = 0, interrupted = 0;
  for (const auto& [id, row] : rows) {
    if (KeptItsFigures(row)) {
      ++kept;
    } else {
      ++interrupted;
      EXPECT_EQ(row.at("status"), "skipped") << id;
      EXPECT_EQ(Message(row), "interrupted") << id;
    }
  }
  EXPECT_EQ(kept, 1);
  EXPECT_EQ(interrupted, 1);
  EXPECT_NE(refract.err().find("interrupted"), std::string::npos) << refract.err();
  EXPECT_EQ(dir.Entries(), std::vector<std::string>{"out.json"});  // no temporary file left
}

INSTANTIATE_TEST_SUITE_P(Signals, CliInterruptE2e, ::testing::Values(SIGINT, SIGTERM),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return info.param == SIGINT ? std::string("SIGINT")
                                                       : std::string("SIGTERM");
                         });

TEST(CliLifecycleE2e, ASecondInterruptExitsAtOnceEvenWhileAKernelNeverFinishes) {
  testing::ScratchFolder dir("lifecycle");
  const fs::path json = dir.path() / "out.json";
  std::ofstream(json) << "old results\n";
  testing::PlantedKernel planted("ceil_atomic", EndlessHistogramKernel());
  // No deadline: once the endless kernel runs, only a second signal can end refract.
  std::vector<std::string> args = FewRows(json, "read-linear,write-linear,atomic-direct");
  args.insert(args.end(), {"--timeout-s", "0"});
  ChildProcess refract(args);
  // With seed 1 the round measures the bandwidth rows first, then the endless kernel.
  ASSERT_TRUE(refract.WaitForOutput("read-linear: ok ")) << refract.out() << refract.err();
  ASSERT_TRUE(refract.WaitForOutput("write-linear: ok ")) << refract.out() << refract.err();
  refract.Signal(SIGINT);
  // The first signal is taken (two signals sent at once may arrive as one).
  ASSERT_TRUE(refract.WaitForError("stopping after the current measurement")) << refract.err();
  refract.Signal(SIGINT);
  ASSERT_EQ(refract.Wait(120), 130) << refract.out() << refract.err();

  // The second signal came before anything was written (or, had the first stopped the run
  // before the kernel started, while the whole new document was written): the old file or a
  // whole new one, never a part of it, never a temporary file.
  const std::string content = ReadFile(json);
  if (content != "old results\n") {
    EXPECT_EQ(RowsOf(json).size(), 3u);
  }
  EXPECT_EQ(dir.Entries(), std::vector<std::string>{"out.json"});
}

}  // namespace
}  // namespace refract
