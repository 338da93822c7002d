// The command-line front end: parses arguments and runs one subcommand. main() only calls Run.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace refract::cli {

/// Exit codes (README, "Exit codes"; docs/GUARANTEES.md).
enum ExitCode : int {
  kExitOk = 0,             ///< every row ok or skipped
  kExitRowsFailed = 1,     ///< some row is `error`, or the run failed outside any row
  kExitUsage = 2,          ///< usage or environment error, or an output could not be written
  kExitTimeout = 3,        ///< a GPU wait passed its deadline (--timeout-s); the rows so far written
  kExitInterrupted = 130,  ///< stopped by SIGINT or SIGTERM (128 + SIGINT); finished rows written
};

/// Runs refract with `args` (args[0] is the program name); writes results to `out`, messages
/// and errors to `err`. Never throws: every error becomes a message and an exit code.
int Run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace refract::cli
