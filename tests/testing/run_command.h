// Runs a command line through the shell and captures what it printed, for end-to-end tests.
#pragma once

#include <string>

namespace refract::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;  ///< standard output
  std::string err;  ///< standard error
};

/// Runs `command` with /bin/sh; standard output and error are captured separately.
CommandResult RunCommand(const std::string& command);

}  // namespace refract::testing
