#include "testing/planted_kernel.h"

#include <stdlib.h>

#include <atomic>
#include <fstream>

#include "base/error.h"
#include "kernels/embedded_kernels.h"

namespace refract::testing {

std::string EditedKernel(std::string_view name, std::string_view from, std::string_view to) {
  std::string source(kernels::KernelSource(name));
  const size_t at = source.find(from);
  if (at == std::string::npos || source.find(from, at + 1) != std::string::npos) {
    throw Error("kernel " + std::string(name) + " does not hold '" + std::string(from) +
                "' exactly once");
  }
  return source.replace(at, from.size(), to);
}

PlantedKernel::PlantedKernel(std::string_view name, std::string_view source) {
  // A fresh folder each time: KernelSource caches what it read by path.
  static std::atomic<int> counter{0};
  dir_ = std::filesystem::temp_directory_path() /
         ("refract-planted-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
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
