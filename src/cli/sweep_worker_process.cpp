#include "cli/sweep_worker_process.h"

#include <fmt/format.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iostream>
#include <thread>
#include <utility>

#include "base/error.h"
#include "cli/app.h"

namespace refract::cli {

tune::WorkerEnd WorkerEndOf(int status) {
  using Kind = tune::WorkerEnd::Kind;
  if (WIFSIGNALED(status)) {
    return {.kind = Kind::kDied,
            .how = fmt::format("signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)))};
  }
  const int code = WEXITSTATUS(status);
  // The codes a worker ends with by design; any other is a failure it said the reason for.
  constexpr std::pair<int, Kind> kDesigned[] = {{kExitOk, Kind::kDone},
                                                {kExitInterrupted, Kind::kInterrupted},
                                                {kWorkerDeviceLost, Kind::kDeviceLost},
                                                {kWorkerHung, Kind::kHung},
                                                {kWorkerNewDevice, Kind::kNewDevice}};
  tune::WorkerEnd end{.kind = Kind::kFailed, .exit_code = code,
                      .how = fmt::format("exit code {}", code)};
  for (const auto& [designed, kind] : kDesigned) {
    if (code == designed) end.kind = kind;
  }
  return end;
}

WorkerProcess::WorkerProcess(std::function<int()> work, std::function<bool()> stop_requested)
    : work_(std::move(work)), stop_requested_(std::move(stop_requested)) {}

tune::WorkerEnd WorkerProcess::RunWorker() {
  std::cout.flush();
  std::cerr.flush();
  const pid_t supervisor = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    throw EnvironmentError(std::string("cannot start a sweep worker: ") + strerror(errno));
  }
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // a killed supervisor takes its worker along
    if (getppid() != supervisor) std::_Exit(kExitRowsFailed);  // it died before prctl took
    setpgid(0, 0);
    const int code = work_();
    std::cout.flush();
    std::cerr.flush();
    std::_Exit(code);  // no destructors: a hung device must not be waited for
  }
  setpgid(pid, pid);
  bool passed_on = false;
  int status = 0;
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) return WorkerEndOf(status);
    if (done < 0 && errno != EINTR) {
      throw EnvironmentError(std::string("lost the sweep worker: ") + strerror(errno));
    }
    if (!passed_on && stop_requested_()) {
      kill(pid, SIGINT);
      passed_on = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace refract::cli
