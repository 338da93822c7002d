#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include "cli/app.h"

int main(int argc, char** argv) {
  // A reader that leaves (`refract ceilings | head`) makes writes fail with EPIPE, which is
  // reported, instead of ending the run silently before its results are written.
  std::signal(SIGPIPE, SIG_IGN);
  return refract::cli::Run(std::vector<std::string>(argv, argv + argc), std::cout, std::cerr);
}
