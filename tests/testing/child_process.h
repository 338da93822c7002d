// A child process for end-to-end tests that need to talk to a running refract: read its
// output as it comes, send it signals, collect its exit status.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>
#include <vector>

namespace refract::testing {

/// Runs `argv` (argv[0] a path) with `env` added to this process's environment ("NAME=value"
/// entries); standard output comes through a pipe, standard error goes to a temporary file.
/// The destructor kills the child if it still runs.
class ChildProcess {
 public:
  explicit ChildProcess(const std::vector<std::string>& argv,
                        const std::vector<std::string>& env = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  /// Reads standard output until it holds `text`; false when the output ends first or
  /// `limit_s` passes (a bound against a stuck child, not a timing check) [s].
  bool WaitForOutput(std::string_view text, double limit_s = 300);

  /// Waits until standard error holds `text`; false when the child ends first or `limit_s`
  /// passes [s].
  bool WaitForError(std::string_view text, double limit_s = 300);

  /// Sends `signal` to the child.
  void Signal(int signal);

  /// Reads the rest of the output and waits for the child to end; returns its exit status, or
  /// 128 + the signal that ended it. After `limit_s` the child is killed (SIGKILL) [s].
  int Wait(double limit_s = 300);

  const std::string& out() const { return out_; }  ///< standard output so far
  std::string err() const;                         ///< standard error (complete after Wait)

 private:
  // Appends what is readable within `timeout_ms`; false at the end of the output.
  bool ReadSome(int timeout_ms);

  pid_t pid_ = -1;
  int out_fd_ = -1;
  std::string err_path_;
  std::string out_;
  bool exited_ = false;
  int status_ = -1;
};

}  // namespace refract::testing
