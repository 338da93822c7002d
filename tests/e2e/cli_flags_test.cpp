// The flags as one set: every command that runs rows takes the common flags, each meaning the
// same; every whole-number option of every command takes plain decimal digits within its range
// and nothing else; every file option refuses ""; a usage error points at the help of the
// subcommand named; an adapter that is not there leaves nothing behind; a read-only output is
// kept even as root. The options are read from each command's own --help, so an option added
// later is held to the same rules without this file changing.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/number_checks.h"
#include "testing/run_command.h"
#include "testing/scratch_folder.h"

namespace refract {
namespace {

namespace fs = std::filesystem;
using testing::RunCommand;

const std::string kRefract = REFRACT_BINARY;
const std::string kRun = std::string(REFRACT_SOURCE_DIR) + "/tests/data/lavapipe-run.json";

/// A command line of each command that parses: the option under test is added after it (every
/// command stops on the parse error before doing any work).
const std::vector<std::string>& CommandLines() {
  static const std::vector<std::string> lines = {
      "ceilings --list",       "kernels --list",   "sweep --sweep reduction --quick --list",
      "smoke",                 "info",             "report '" + kRun + "' -o /dev/null",
      "compare '" + kRun + "' '" + kRun + "'",     "profile show", "profile merge x.json -o y.json",
      "profile check"};
  return lines;
}

struct HelpOption {
  std::string name;  ///< "--seed"
  std::string type;  ///< "UINT:WHOLE in [0 - 18446744073709551615]"
};

/// The options `--help` lists for `command_line`'s command, with their value's type.
std::vector<HelpOption> OptionsOf(const std::string& command_line) {
  const std::string command = command_line.substr(0, command_line.find(" -"));
  const auto help = RunCommand(kRefract + " " + command.substr(0, command.find(" '")) + " --help");
  EXPECT_EQ(help.exit_code, 0) << command << help.err;
  std::vector<HelpOption> options;
  std::istringstream lines(help.out);
  const std::regex option_line(R"(^\s+(?:-\w,)?(--[\w-]+)\s+([A-Z]\S*(?: in \[[^\]]*\])?))");
  for (std::string line; std::getline(lines, line);) {
    std::smatch match;
    if (std::regex_search(line, match, option_line)) options.push_back({match[1], match[2]});
  }
  return options;
}

/// The decimal spelling of `digits` + 1 ("18446744073709551615" gives "18446744073709551616").
std::string OnePast(std::string digits) {
  size_t at = digits.size();
  while (at > 0 && digits[at - 1] == '9') digits[--at] = '0';
  if (at == 0) return "1" + digits;
  ++digits[at - 1];
  return digits;
}

TEST(CliFlags, OnePastCountsInDecimal) {
  EXPECT_EQ(OnePast("0"), "1");
  EXPECT_EQ(OnePast("1099"), "1100");
  EXPECT_EQ(OnePast("999"), "1000");
  EXPECT_EQ(OnePast("18446744073709551615"), "18446744073709551616");
}

// The check itself, in process, on every spelling that is not plain decimal digits or lies
// outside the range: CLI11 alone would read most of them as a number.
TEST(CliFlags, TheWholeNumberCheckTakesDecimalDigitsWithinItsRangeOnly) {
  for (const char* value : {"0x10", " 5", "5 ", "+5", "-1", "1e3", "2.0", "", "4", "65",
                            "18446744073709551616", "99999999999999999999999"}) {
    SCOPED_TRACE(std::string("'") + value + "'");
    CLI::App app;
    uint64_t number = 0;
    cli::CheckWholeWithin(app.add_option("--n", number), 5, 64);
    const std::vector<std::string> args = {"--n", value};
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    EXPECT_THROW(app.parse(reversed), CLI::ValidationError);
  }
  for (const auto& [value, expected] : {std::pair{"5", 5u}, std::pair{"64", 64u},
                                        std::pair{"007", 7u}}) {
    CLI::App app;
    uint64_t number = 0;
    cli::CheckWholeWithin(app.add_option("--n", number), 5, 64);
    std::vector<std::string> reversed = {value, "--n"};
    EXPECT_NO_THROW(app.parse(reversed)) << value;
    EXPECT_EQ(number, expected);
  }
}

// Every whole-number option of every command carries that check, as the binary parses it: a
// value that is no plain decimal and one past its range are each exit 2 naming the option.
TEST(CliFlags, EveryWholeNumberOptionTakesDecimalDigitsWithinItsRangeOnly) {
  const std::regex range(R"(WHOLE in \[(\d+) - (\d+)\])");
  size_t checked = 0;
  for (const std::string& line : CommandLines()) {
    for (const HelpOption& option : OptionsOf(line)) {
      const bool whole = option.type.rfind("UINT", 0) == 0 || option.type.rfind("INT", 0) == 0;
      if (!whole) continue;
      SCOPED_TRACE(line + " " + option.name);
      std::smatch bounds;
      ASSERT_TRUE(std::regex_search(option.type, bounds, range)) << option.type;
      for (const std::string& value : {std::string("0x10"), OnePast(bounds[2])}) {
        const auto result =
            RunCommand(kRefract + " " + line + " " + option.name + " '" + value + "'");
        EXPECT_EQ(result.exit_code, 2) << "'" << value << "': " << result.out << result.err;
        EXPECT_NE(result.err.find(option.name), std::string::npos) << result.err;
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 15u);  // the harness knobs alone are seven
}

TEST(CliFlags, EveryDecimalOptionIsCheckedFinite) {
  size_t checked = 0;
  for (const std::string& line : CommandLines()) {
    for (const HelpOption& option : OptionsOf(line)) {
      if (option.type.rfind("FLOAT", 0) != 0) continue;
      SCOPED_TRACE(line + " " + option.name);
      EXPECT_NE(option.type.find("FINITE"), std::string::npos) << option.type;
      ++checked;
    }
  }
  EXPECT_GE(checked, 8u);
}

TEST(CliFlags, EveryFileOptionRefusesAnEmptyName) {
  const std::regex file_option("^--(json|html|csv|markdown|profile|journal|ceilings|output)$");
  size_t checked = 0;
  for (const std::string& line : CommandLines()) {
    for (const HelpOption& option : OptionsOf(line)) {
      if (!std::regex_match(option.name, file_option)) continue;
      SCOPED_TRACE(line + " " + option.name);
      const auto result = RunCommand(kRefract + " " + line + " " + option.name + " ''");
      EXPECT_EQ(result.exit_code, 2) << result.out << result.err;
      EXPECT_NE(result.err.find("a file name, not an empty one"), std::string::npos) << result.err;
      ++checked;
    }
  }
  EXPECT_GE(checked, 20u);
}

// One set of flags for every command that runs rows: a script that runs the suites with the
// same flags works for each.
TEST(CliFlags, EverySuiteCommandTakesTheCommonFlags) {
  testing::ScratchFolder folder("flags");
  const std::string common = " --no-live --no-timestamps --seed 7 --samples 3 --timeout-s 300 "
                             "--adapter high-performance --json '" +
                             (folder.path() / "out.json").string() + "'";
  for (const std::string& line : {std::string("ceilings --list"), std::string("kernels --list"),
                                  std::string("sweep --sweep reduction --quick --list")}) {
    const auto result = RunCommand(kRefract + " " + line + common);
    EXPECT_EQ(result.exit_code, 0) << line << ": " << result.err;
  }
  const auto smoke = RunCommand(kRefract + " smoke --elements 4096" + common);
  EXPECT_EQ(smoke.exit_code, 0) << smoke.err;
  std::ifstream written(folder.path() / "out.json");
  std::stringstream text;
  text << written.rdbuf();
  EXPECT_NE(text.str().find("\"seed\": 7"), std::string::npos);
  EXPECT_NE(text.str().find("\"timestamps\": \"off\""), std::string::npos);
}

TEST(CliFlags, AUsageErrorPointsAtTheHelpOfTheSubcommandNamed) {
  const auto merge = RunCommand(kRefract + " profile merge");
  EXPECT_EQ(merge.exit_code, 2);
  EXPECT_NE(merge.err.find("run 'refract profile merge --help'"), std::string::npos) << merge.err;
  const auto check = RunCommand(kRefract + " profile check --timeout-s nan");
  EXPECT_EQ(check.exit_code, 2);
  EXPECT_NE(check.err.find("run 'refract profile check --help'"), std::string::npos) << check.err;
  const auto sweep = RunCommand(kRefract + " sweep --sweep warp --list");
  EXPECT_NE(sweep.err.find("run 'refract sweep --help'"), std::string::npos) << sweep.err;
}

// What `--adapter fallback` reaches depends on the machine (none where lavapipe is the only
// driver: Dawn offers it as an ordinary adapter); either way a sweep on it either runs or leaves
// nothing behind.
TEST(CliFlags, AnAdapterThatIsNotThereLeavesNoDocumentNorJournal) {
  testing::ScratchFolder folder("flags");
  const auto listed = RunCommand(kRefract + " info --list-adapters");
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  const bool no_fallback = listed.out.find("--adapter fallback          none:") != std::string::npos;
  const fs::path journal = folder.path() / "sweep.journal";
  const fs::path document = folder.path() / "sweep.json";
  const auto swept =
      RunCommand(kRefract + " sweep --sweep reduction --quick --samples 3 --adapter fallback " +
                 "--filter '*/default' --journal '" + journal.string() + "' --json '" +
                 document.string() + "'");
  if (no_fallback) {
    EXPECT_EQ(swept.exit_code, 2) << swept.out << swept.err;
    EXPECT_NE(swept.err.find("no Vulkan adapter"), std::string::npos) << swept.err;
    EXPECT_FALSE(fs::exists(journal));
    EXPECT_FALSE(fs::exists(document));
  } else {
    EXPECT_EQ(swept.exit_code, 0) << swept.out << swept.err;
    EXPECT_TRUE(fs::exists(document));
  }
}

TEST(CliFlags, AReadOnlyOutputIsKeptWhoeverRuns) {
  testing::ScratchFolder folder("flags");
  const fs::path kept = folder.path() / "kept.html";
  std::ofstream(kept) << "mine";
  fs::permissions(kept, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  const auto result = RunCommand(kRefract + " report '" + kRun + "' -o '" + kept.string() + "'");
  EXPECT_EQ(result.exit_code, 2) << result.out << result.err;
  EXPECT_NE(result.err.find("read-only (mode 0444)"), std::string::npos) << result.err;
  std::ifstream in(kept);
  std::string text;
  std::getline(in, text);
  EXPECT_EQ(text, "mine");
}

}  // namespace
}  // namespace refract
