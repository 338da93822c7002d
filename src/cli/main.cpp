#include <iostream>
#include <string>
#include <vector>

#include "cli/app.h"

int main(int argc, char** argv) {
  return refract::cli::Run(std::vector<std::string>(argv, argv + argc), std::cout, std::cerr);
}
