// Input that is well-formed but meaningless, and outputs that collide with what the user cares
// about, as a user meets them through the built binary: NaN options, closed standard
// descriptors, outputs over inputs, impossible ceilings, unknown commands, a kernel folder that
// is not there or replaces a kernel, reports of other devices and of no rows.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/sha256.h"
#include "kernels/embedded_kernels.h"
#include "testing/golden.h"
#include "testing/run_command.h"
#include "testing/scratch_folder.h"

namespace refract {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::RunCommand;

const std::string kRefract = REFRACT_BINARY;
const std::string kFixtures = std::string(REFRACT_SOURCE_DIR) + "/tests/fixtures/";
const std::string kData = std::string(REFRACT_SOURCE_DIR) + "/tests/data/";
// A small, quick smoke run: five samples of 64 Ki elements.
const std::string kSmoke = " smoke --elements 65536 --no-live";

class CliHardening : public ::testing::Test {
 protected:
  std::string Path(const std::string& name) const { return (folder_ / name).string(); }

  std::string Copy(const std::string& from, const std::string& name) const {
    fs::copy_file(from, Path(name));
    return Path(name);
  }

  testing::ScratchFolder scratch_{"hardening"};
  const fs::path& folder_ = scratch_.path();
};

TEST_F(CliHardening, NanAndInfinityAreRefusedByEveryDecimalOption) {
  const std::vector<std::string> options = {"--timeout-s",       "--batch-ms",    "--tolerance",
                                            "--throttle-factor", "--idle-gap-ms", "--dispatch-ms",
                                            "--cooldown-ms"};
  for (const std::string& option : options) {
    for (const char* value : {"nan", "NaN", "-nan", "inf", "1e400"}) {
      const auto result = RunCommand(kRefract + kSmoke + " " + option + " " + value);
      EXPECT_EQ(result.exit_code, 2) << option << " " << value << ": " << result.err;
      EXPECT_NE(result.err.find(option), std::string::npos) << result.err;
      EXPECT_NE(result.err.find("not a finite number"), std::string::npos) << result.err;
    }
  }
  // An unsigned option without a range: "-1" must not wrap around to 2^64 - 1.
  const auto seed = RunCommand(kRefract + kSmoke + " --seed -1");
  EXPECT_EQ(seed.exit_code, 2) << seed.err;
  EXPECT_NE(seed.err.find("not a whole number"), std::string::npos) << seed.err;
  // The CI gate of compare: --threshold nan must not switch it off.
  const auto compare = RunCommand(kRefract + " compare " + kFixtures + "kernels.json " + kFixtures +
                                  "kernels.json --threshold nan --fail-on-slower");
  EXPECT_EQ(compare.exit_code, 2) << compare.out << compare.err;
  EXPECT_NE(compare.err.find("--threshold"), std::string::npos) << compare.err;
}

TEST_F(CliHardening, ClosedStandardOutputIsRefusedBeforeAnyWork) {
  for (const char* command : {" info --json -", " info", " ceilings --filter read-linear"}) {
    const auto result = RunCommand(kRefract + command + " >&-");
    EXPECT_EQ(result.exit_code, 2) << command;
    EXPECT_NE(result.err.find("standard output is closed"), std::string::npos) << result.err;
  }
}

TEST_F(CliHardening, ClosedInputAndErrorDoNotBecomeAnotherFile) {
  // Descriptors 0 and 2 closed: the document still reaches standard output whole, and nothing
  // refract or the driver opens takes their place.
  const auto result = RunCommand(kRefract + " info --json - <&- 2>&-");
  ASSERT_EQ(result.exit_code, 0);
  const json document = json::parse(result.out);
  EXPECT_EQ(document.at("schema_version"), 2);
  EXPECT_EQ(document.at("device").at("backend"), "vulkan");
}

TEST_F(CliHardening, AnOutputThatIsAnInputOrAnotherOutputIsAUsageError) {
  const std::string run = Copy(kFixtures + "kernels.json", "run.json");
  const std::string original = testing::ReadTextFile(run);
  fs::create_symlink(run, Path("link.json"));
  const std::vector<std::string> commands = {
      " report " + run + " -o " + run,
      " report " + run + " -o " + Path("link.json"),
      " report " + run + " --csv " + Path("both") + " --markdown " + Path("both"),
      " compare " + run + " " + run + " --html " + Path("link.json"),
      " ceilings --filter read-linear --json " + Path("f") + " --html " + Path("f"),
      " kernels --kernel rmsnorm --ceilings " + Copy(kData + "lavapipe-run.json", "c.json") +
          " --json " + Path("c.json"),
  };
  for (const std::string& command : commands) {
    const auto result = RunCommand(kRefract + command);
    EXPECT_EQ(result.exit_code, 2) << command << "\n" << result.err;
    EXPECT_TRUE(result.err.find("is the input") != std::string::npos ||
                result.err.find("the same file") != std::string::npos)
        << result.err;
  }
  EXPECT_EQ(testing::ReadTextFile(run), original);
  EXPECT_TRUE(fs::is_symlink(Path("link.json")));
  EXPECT_FALSE(fs::exists(Path("both")));
  EXPECT_FALSE(fs::exists(Path("f")));
}

TEST_F(CliHardening, CeilingsOfZeroOrNegativeRateAreRefusedNamingTheField) {
  for (const double rate : {0.0, -5e9}) {
    json document = json::parse(testing::ReadTextFile(kData + "lavapipe-run.json"));
    document["summary"]["read_bandwidth_Bps"] = rate;
    const std::string path = Path("ceilings.json");
    std::ofstream(path) << document.dump();
    const auto result = RunCommand(kRefract + " kernels --kernel rmsnorm --ceilings " + path);
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find(path), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("summary.read_bandwidth_Bps"), std::string::npos) << result.err;
  }
}

TEST_F(CliHardening, ReadErrorsNameTheFileOnceAndSayWhatItIs) {
  const std::string broken = Path("broken.json");
  std::ofstream(broken) << "{";
  const auto parse = RunCommand(kRefract + " report " + broken + " -o " + Path("r.html"));
  EXPECT_EQ(parse.exit_code, 2);
  EXPECT_NE(parse.err.find("refract: '" + broken + "': not valid JSON"), std::string::npos)
      << parse.err;
  const auto folder =
      RunCommand(kRefract + " report " + folder_.string() + " -o " + Path("r.html"));
  EXPECT_EQ(folder.exit_code, 2);
  EXPECT_NE(folder.err.find("is a folder"), std::string::npos) << folder.err;
  // A device is never read (its bytes may be endless), a named pipe never opened (with no
  // writer the open would block for ever).
  const auto endless = RunCommand(kRefract + " report /dev/zero -o " + Path("r.html"));
  EXPECT_EQ(endless.exit_code, 2);
  EXPECT_NE(endless.err.find("is a device, not a file"), std::string::npos) << endless.err;
  ASSERT_EQ(RunCommand("mkfifo " + Path("pipe")).exit_code, 0);
  const auto pipe = RunCommand(kRefract + " report " + Path("pipe") + " -o " + Path("r.html"));
  EXPECT_EQ(pipe.exit_code, 2);
  EXPECT_NE(pipe.err.find("is a named pipe, not a file"), std::string::npos) << pipe.err;
}

TEST_F(CliHardening, AnUnknownCommandIsNamedWithTheCommandsThereAre) {
  const auto result = RunCommand(kRefract + " frobnicate");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("unknown command 'frobnicate'"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("ceilings"), std::string::npos) << result.err;
}

TEST_F(CliHardening, AKernelFolderThatIsNotThereIsAUsageError) {
  const auto result = RunCommand("REFRACT_KERNEL_DIR=" + Path("absent") + " " + kRefract + kSmoke);
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("REFRACT_KERNEL_DIR"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find(Path("absent")), std::string::npos) << result.err;
}

TEST_F(CliHardening, AReplacedKernelIsNamedWithItsPathAndHash) {
  // The embedded source itself, from a file: the figures are the same, the record says where
  // the kernel came from.
  const std::string source(wgsl::KernelSource("smoke_scale_add"));
  fs::create_directory(Path("kernels"));
  std::ofstream(Path("kernels/smoke_scale_add.wgsl")) << source;
  const auto result = RunCommand("REFRACT_KERNEL_DIR=" + Path("kernels") + " " + kRefract + kSmoke +
                                 " --json " + Path("run.json"));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json document = json::parse(testing::ReadTextFile(Path("run.json")));
  EXPECT_EQ(document.at("options").at("kernel_dir"), Path("kernels"));
  const std::string replaced = document.at("results").at(0).at("params").at("replaced_kernels");
  EXPECT_EQ(replaced, "smoke_scale_add from " + Path("kernels/smoke_scale_add.wgsl") + " (sha256 " +
                          Sha256Hex(source) + ")");
}

TEST_F(CliHardening, AReportOfTwoAdaptersOrOfNoRowsSaysSo) {
  json other = json::parse(testing::ReadTextFile(kFixtures + "kernels.json"));
  other["device"]["device"] = "NVIDIA H200";
  other["device"]["vendor_id"] = 0x10de;
  std::ofstream(Path("h200.json")) << other.dump();
  const auto two = RunCommand(kRefract + " report " + kFixtures + "kernels.json " +
                              Path("h200.json") + " -o " + Path("two.html"));
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_NE(two.err.find("different adapters"), std::string::npos) << two.err;
  EXPECT_NE(testing::ReadTextFile(Path("two.html")).find("these runs are from different adapters"),
            std::string::npos);

  json empty = json::parse(testing::ReadTextFile(kFixtures + "kernels.json"));
  empty["results"] = json::array();
  std::ofstream(Path("empty.json")) << empty.dump();
  const auto none =
      RunCommand(kRefract + " report " + Path("empty.json") + " -o " + Path("none.html"));
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(none.err.find("'empty.json' holds no rows"), std::string::npos) << none.err;
}

}  // namespace
}  // namespace refract
