#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cli/app.h"
#include "cli/standard_streams.h"
#include "gpu/context.h"

int main(int argc, char** argv) {
  // Before anything opens a file: a closed 0, 1 or 2 must not become a driver's file.
  const refract::cli::ClosedStandardStreams closed = refract::cli::TakeClosedStandardStreams();
  if (closed.output) {
    // The tables, and every `-` output, go there: fail before any work, not after it.
    std::cerr << "refract: standard output is closed: refract prints its results there "
                 "(redirect it to /dev/null to discard them)\n";
    return refract::cli::kExitUsage;
  }
  // A reader that leaves (`refract ceilings | head`) makes writes fail with EPIPE, which is
  // reported, instead of ending the run silently before its results are written.
  std::signal(SIGPIPE, SIG_IGN);
  const int code =
      refract::cli::Run(std::vector<std::string>(argv, argv + argc), std::cout, std::cerr);
  if (refract::gpu::AnyContextHung()) {
    // A kernel is stuck on the device (the outputs are written). Tearing the device down waits
    // for it (on lavapipe: Dawn's Queue::WaitForIdleForDestruction, forever), so the context
    // left it alone; skip exit()'s library teardown too, which a driver may run the same way.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(code);
  }
  return code;
}
