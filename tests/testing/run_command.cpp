#include "testing/run_command.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace refract::testing {
namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream file(path);
  std::stringstream content;
  content << file.rdbuf();
  return content.str();
}

}  // namespace

CommandResult RunCommand(const std::string& command) {
  char err_template[] = "/tmp/refract-e2e-err-XXXXXX";
  int err_fd = mkstemp(err_template);
  if (err_fd < 0) throw std::runtime_error("mkstemp failed");
  close(err_fd);
  std::string full = command + " 2>" + err_template;
  FILE* pipe = popen(full.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("popen failed for: " + command);
  CommandResult result;
  char buffer[4096];
  size_t read_bytes;
  while ((read_bytes = fread(buffer, 1, sizeof(buffer), pipe)) > 0)
    result.out.append(buffer, read_bytes);
  int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.err = ReadAll(err_template);
  std::remove(err_template);
  return result;
}

}  // namespace refract::testing
