// The command-line front end: parses arguments and runs one subcommand. main() only calls Run.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace refract::cli {

/// Exit codes: 0 all good, 1 some benchmark rows failed, 2 usage or environment error, 3 a
/// kernel did not finish within --timeout-s (the rows so far were written), 130 interrupted by
/// SIGINT or SIGTERM (the finished rows were written).
enum ExitCode : int {
  kExitOk = 0,
  kExitRowsFailed = 1,
  kExitUsage = 2,
  kExitTimeout = 3,
  kExitInterrupted = 130,
};

/// Runs refract with `args` (args[0] is the program name); writes results to `out`, messages
/// and errors to `err`. Never throws: every error becomes a message and an exit code.
int Run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace refract::cli
