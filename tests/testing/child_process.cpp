#include "testing/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace refract::testing {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv,
                           const std::vector<std::string>& env) {
  char err_template[] = "/tmp/refract-child-err-XXXXXX";
  const int err_fd = mkstemp(err_template);
  if (err_fd < 0) throw std::runtime_error("mkstemp failed");
  err_path_ = err_template;
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_fd, STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> environment(env);
  for (char** entry = environ; *entry != nullptr; ++entry) environment.emplace_back(*entry);
  std::vector<char*> envp;  // the added entries come first, so they win
  for (std::string& entry : environment) envp.push_back(entry.data());
  envp.push_back(nullptr);
  const int spawned = posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  close(err_fd);
  out_fd_ = pipe_fds[0];
  if (spawned != 0) {
    close(out_fd_);
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(spawned));
  }
}

ChildProcess::~ChildProcess() {
  if (!exited_ && pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  if (out_fd_ >= 0) close(out_fd_);
  std::remove(err_path_.c_str());
}

bool ChildProcess::ReadSome(int timeout_ms) {
  pollfd fd{out_fd_, POLLIN, 0};
  if (poll(&fd, 1, timeout_ms) <= 0) return true;
  char buffer[4096];
  const ssize_t got = read(out_fd_, buffer, sizeof(buffer));
  if (got <= 0) return false;
  out_.append(buffer, static_cast<size_t>(got));
  return true;
}

bool ChildProcess::WaitForOutput(std::string_view text, double limit_s) {
  const auto start = std::chrono::steady_clock::now();
  while (out_.find(text) == std::string::npos) {
    if (SecondsSince(start) > limit_s || !ReadSome(100)) return false;
  }
  return true;
}

bool ChildProcess::WaitForError(std::string_view text, double limit_s) {
  const auto start = std::chrono::steady_clock::now();
  while (err().find(text) == std::string::npos) {
    if (SecondsSince(start) > limit_s || !ReadSome(50)) return false;
  }
  return true;
}

void ChildProcess::Signal(int signal) { kill(pid_, signal); }

int ChildProcess::Wait(double limit_s) {
  const auto start = std::chrono::steady_clock::now();
  while (ReadSome(100)) {
    if (SecondsSince(start) > limit_s) kill(pid_, SIGKILL);
  }
  int status = 0;
  waitpid(pid_, &status, 0);
  exited_ = true;
  status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return status_;
}

std::string ChildProcess::err() const {
  std::ifstream file(err_path_);
  std::stringstream content;
  content << file.rdbuf();
  return content.str();
}

}  // namespace refract::testing
