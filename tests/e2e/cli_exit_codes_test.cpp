// Every exit code the README documents, produced by the built binary as a user meets it; and
// how usage errors read. 3 (a GPU wait past its deadline) and 130 (interrupted) belong to the
// run's lifecycle and are tested with it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
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
// A small, quick smoke run: five samples of 64 Ki elements.
const std::string kSmoke = " smoke --elements 65536 --no-live";

size_t Lines(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

// A scratch folder for one test, removed with it.
class CliExitCodes : public ::testing::Test {
 protected:
  testing::ScratchFolder scratch_{"exit"};
  const fs::path& folder_ = scratch_.path();
};

TEST_F(CliExitCodes, ZeroWhenEveryRowIsOk) {
  const auto result = RunCommand(kRefract + kSmoke);
  EXPECT_EQ(result.exit_code, 0) << result.err;
}

TEST_F(CliExitCodes, OneWhenARowFailsAndTheRunStillWritesItsResults) {
  // A kernel variant that does not compile: the row is `error`, the run goes on to the end.
  std::ofstream(folder_ / "smoke_scale_add.wgsl") << "this is not WGSL\n";
  const fs::path json = folder_ / "out.json";
  const auto result = RunCommand("REFRACT_KERNEL_DIR=" + folder_.string() + " " + kRefract +
                                 kSmoke + " --json " + json.string());
  EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
  EXPECT_NE(result.out.find("results written to " + json.string()), std::string::npos)
      << result.out;
  std::ifstream file(json);
  const nlohmann::json document = nlohmann::json::parse(file);
  ASSERT_EQ(document.at("results").size(), 1u);
  EXPECT_EQ(document["results"][0].at("status"), "error");
  EXPECT_FALSE(document["results"][0].at("message").get<std::string>().empty());
}

TEST_F(CliExitCodes, TwoForAMistypedFlagWithTheErrorAndAOneLineHint) {
  const auto result = RunCommand(kRefract + " ceilings --max-roudns 3");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find("--max-roudns"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("run 'refract ceilings --help'"), std::string::npos) << result.err;
  EXPECT_EQ(Lines(result.err), 2u) << result.err;  // not the whole help
}

TEST_F(CliExitCodes, TwoForABadValueNamingTheSubcommandsHelp) {
  const auto result = RunCommand(kRefract + " info --adapter fastest");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("run 'refract info --help'"), std::string::npos) << result.err;
  EXPECT_EQ(Lines(result.err), 2u) << result.err;
}

TEST_F(CliExitCodes, TwoForAMissingOrUnknownSubcommandPointingAtTheTopHelp) {
  for (const std::string args : {"", " benchmark"}) {
    const auto result = RunCommand(kRefract + args);
    EXPECT_EQ(result.exit_code, 2) << args;
    EXPECT_NE(result.err.find("run 'refract --help'"), std::string::npos) << result.err;
    EXPECT_EQ(Lines(result.err), 2u) << result.err;
  }
}

TEST_F(CliExitCodes, TwoWithoutAVulkanAdapter) {
  // The loader finds no driver: an environment error, not a failed row.
  const auto result =
      RunCommand("VK_ICD_FILENAMES=/nonexistent/icd.json VK_DRIVER_FILES=/nonexistent/icd.json " +
                 kRefract + " info");
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("refract: no Vulkan adapter"), std::string::npos) << result.err;
}

TEST_F(CliExitCodes, TwoForInfoJsonIntoAMissingFolder) {
  const std::string path = (folder_ / "absent" / "info.json").string();
  const auto result = RunCommand(kRefract + " info --json " + path);
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find(path), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("No such file or directory"), std::string::npos) << result.err;
}

TEST_F(CliExitCodes, TwoForARunWhoseJsonCannotBeWrittenAndNoClaimOfSuccess) {
  // /dev/full takes the open and refuses every byte (ENOSPC), after the whole run.
  const auto result = RunCommand(kRefract + kSmoke + " --json /dev/full");
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("cannot write '/dev/full'"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("No space left on device"), std::string::npos) << result.err;
  EXPECT_EQ(result.out.find("results written"), std::string::npos) << result.out;
  EXPECT_TRUE(fs::is_character_file(fs::symlink_status("/dev/full")));
}

TEST_F(CliExitCodes, TwoWhenStandardOutputFails) {
  const auto result = RunCommand(kRefract + " info >/dev/full");
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("cannot write to standard output"), std::string::npos) << result.err;
}

TEST_F(CliExitCodes, TwoWhenTheReaderOfStandardOutputIsGone) {
  // Standard output is a pipe whose read end is closed before refract starts: every write
  // meets EPIPE. refract must say so and exit 2, not die of SIGPIPE without a word.
  for (const std::string args : {"info", "info --json -"}) {
    int ends[2];
    ASSERT_EQ(::pipe2(ends, O_CLOEXEC), 0);
    ::close(ends[0]);
    const std::string err_path = (folder_ / "err.txt").string();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, ends[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    const std::string command = kRefract + " " + args;
    const std::string exec_command = "exec " + command;
    char* argv[] = {const_cast<char*>("/bin/sh"), const_cast<char*>("-c"),
                    const_cast<char*>(exec_command.c_str()), nullptr};
    pid_t pid = -1;
    ASSERT_EQ(posix_spawn(&pid, "/bin/sh", &actions, nullptr, argv, environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    ::close(ends[1]);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    std::ifstream err_file(err_path);
    std::stringstream err;
    err << err_file.rdbuf();
    ASSERT_TRUE(WIFEXITED(status)) << args << ": ended by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 2) << args << ": " << err.str();
    EXPECT_NE(err.str().find("cannot write to standard output"), std::string::npos)
        << args << ": " << err.str();
  }
}

TEST_F(CliExitCodes, VersionPrintsToolAndDawnVersions) {
  const auto result = RunCommand(kRefract + " --version");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            std::string("refract ") + REFRACT_VERSION + " (Dawn " + REFRACT_DAWN_PACKAGE + ")\n");
}

}  // namespace
}  // namespace refract
