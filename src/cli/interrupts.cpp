#include "cli/interrupts.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "cli/app.h"

namespace refract::cli {
namespace {

// Written by the signal handler, so lock-free atomics only.
std::atomic<int> signals_seen{0};
std::atomic<bool> writing_output{false};
std::atomic<bool> exit_after_write{false};
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<bool>::is_always_lock_free);

struct sigaction previous_int, previous_term;

template <size_t N>
void Say(const char (&text)[N]) {
  const ssize_t written = ::write(STDERR_FILENO, text, N - 1);  // async-signal-safe
  static_cast<void>(written);
}

void OnSignal(int) {
  const int count = signals_seen.fetch_add(1) + 1;
  if (count == 1) {
    Say("\nrefract: interrupted: stopping after the current measurement "
        "(interrupt again to quit at once)\n");
    return;
  }
  if (count == 2 && writing_output.load()) {
    exit_after_write.store(true);
    return;
  }
  Say("\nrefract: interrupted again: quitting\n");
  ::_exit(kExitInterrupted);
}

}  // namespace

InterruptHandling::InterruptHandling() {
  signals_seen.store(0);
  exit_after_write.store(false);
  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // a signal must not fail the driver's or Dawn's system calls
  sigaction(SIGINT, &action, &previous_int);
  sigaction(SIGTERM, &action, &previous_term);
}

InterruptHandling::~InterruptHandling() {
  sigaction(SIGINT, &previous_int, nullptr);
  sigaction(SIGTERM, &previous_term, nullptr);
}

bool InterruptHandling::StopRequested() { return signals_seen.load() > 0; }

OutputWriting::OutputWriting() { writing_output.store(true); }

OutputWriting::~OutputWriting() {
  writing_output.store(false);
  if (exit_after_write.load()) {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(kExitInterrupted);
  }
}

}  // namespace refract::cli
