// `--json` into what users point it at: a link, a named pipe, /dev/stdout, process
// substitution. Each is written, none is replaced (results::WriteOutput has the unit tests).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "testing/run_command.h"
#include "testing/scratch_folder.h"

namespace refract {
namespace {

namespace fs = std::filesystem;
using testing::RunCommand;

const std::string kRefract = REFRACT_BINARY;

class CliOutputs : public ::testing::Test {
 protected:

  static nlohmann::json ParseFile(const fs::path& path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return nlohmann::json::parse(text.str());
  }

  testing::ScratchFolder scratch_{"outputs"};
  const fs::path& folder_ = scratch_.path();
};

TEST_F(CliOutputs, JsonThroughALinkWritesItsTargetAndKeepsTheLink) {
  std::ofstream(folder_ / "run-1.json") << "old\n";
  fs::create_symlink("run-1.json", folder_ / "latest.json");
  const auto result = RunCommand(kRefract + " info --json " + (folder_ / "latest.json").string());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(folder_ / "latest.json")));
  EXPECT_EQ(ParseFile(folder_ / "run-1.json").at("tool"), "refract");
}

TEST_F(CliOutputs, JsonIntoANamedPipeReachesItsReader) {
  const fs::path fifo = folder_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const fs::path received = folder_ / "received.json";
  // `timeout`: should refract never open the pipe, `cat` must not wait for ever.
  const auto result =
      RunCommand("timeout 60 cat " + fifo.string() + " >" + received.string() + " & " + kRefract +
                 " info --json " + fifo.string() + "; code=$?; wait; " + "exit $code");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));
  EXPECT_EQ(ParseFile(received).at("tool"), "refract");
}

TEST_F(CliOutputs, JsonIntoDevStdoutReachesThePipe) {
  const auto result = RunCommand(kRefract + " info --json /dev/stdout | cat");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  // The JSON document, then the info table: both went down the same pipe, in order.
  const size_t end = result.out.find("\n}\n");
  ASSERT_NE(end, std::string::npos) << result.out;
  EXPECT_EQ(nlohmann::json::parse(result.out.substr(0, end + 3)).at("tool"), "refract");
}

TEST_F(CliOutputs, JsonIntoProcessSubstitutionReachesTheReader) {
  const fs::path received = folder_ / "received.json";
  // bash gives refract /dev/fd/N, a pipe to `cat`; `wait $!` waits for that `cat` (bash ≥ 4.4).
  const auto result = RunCommand("bash -c '" + kRefract + " info --json >(cat >" +
                                 received.string() + "); code=$?; wait $!; exit $code'");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(ParseFile(received).at("tool"), "refract");
}

}  // namespace
}  // namespace refract
