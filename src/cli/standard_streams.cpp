#include "cli/standard_streams.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace refract::cli {
namespace {

// True when `fd` was closed and is now /dev/null opened with `flags`.
bool TakeIfClosed(int fd, int flags) {
  if (::fcntl(fd, F_GETFD) >= 0 || errno != EBADF) return false;
  // open() returns the lowest free descriptor: `fd`, since the lower ones are taken already.
  const int taken = ::open("/dev/null", flags);
  if (taken >= 0 && taken != fd) {
    ::dup2(taken, fd);
    ::close(taken);
  }
  return true;
}

}  // namespace

ClosedStandardStreams TakeClosedStandardStreams() {
  ClosedStandardStreams closed;
  closed.input = TakeIfClosed(STDIN_FILENO, O_WRONLY);
  closed.output = TakeIfClosed(STDOUT_FILENO, O_RDONLY);
  closed.error = TakeIfClosed(STDERR_FILENO, O_RDONLY);
  return closed;
}

}  // namespace refract::cli
