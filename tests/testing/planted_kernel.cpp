#include "testing/planted_kernel.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>

#include "base/error.h"
#include "kernels/embedded_kernels.h"

namespace refract::testing {

PlantedKernel::PlantedKernel(std::string_view name, std::string_view from, std::string_view to) {
  static std::atomic<int> counter{0};
  unsetenv(kernels::kKernelDirVariable);
  std::string source(kernels::KernelSource(name));
  const size_t at = source.find(from);
  if (at == std::string::npos) {
    throw Error("planted " + std::string(name) + ": '" + std::string(from) + "' not found");
  }
  source.replace(at, from.size(), to);
  dir_ = std::filesystem::temp_directory_path() /
         ("refract_planted_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
  std::filesystem::create_directories(dir_);
  std::ofstream(dir_ / (std::string(name) + ".wgsl")) << source;
  setenv(kernels::kKernelDirVariable, dir_.c_str(), 1);
}

PlantedKernel::~PlantedKernel() {
  unsetenv(kernels::kKernelDirVariable);
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

}  // namespace refract::testing
