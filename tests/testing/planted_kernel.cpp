#include "testing/planted_kernel.h"

#include <stdlib.h>

#include <fstream>

#include "base/error.h"
#include "kernels/embedded_kernels.h"

namespace refract::testing {

std::string EditedKernel(std::string_view name, std::string_view from, std::string_view to) {
  std::string source(wgsl::KernelSource(name));
  const size_t at = source.find(from);
  if (at == std::string::npos || source.find(from, at + 1) != std::string::npos) {
    throw Error("kernel " + std::string(name) + " does not hold '" + std::string(from) +
                "' exactly once");
  }
  return source.replace(at, from.size(), to);
}

PlantedKernel::PlantedKernel(std::string_view name, std::string_view source) {
  std::ofstream(folder_.path() / (std::string(name) + ".wgsl")) << source;
  setenv(wgsl::kKernelDirVariable, folder_.path().c_str(), 1);
}

PlantedKernel::PlantedKernel(std::initializer_list<Edit> edits) {
  for (const Edit& edit : edits) {
    std::ofstream(folder_.path() / (std::string(edit.name) + ".wgsl"))
        << EditedKernel(edit.name, edit.from, edit.to);
  }
  setenv(wgsl::kKernelDirVariable, folder_.path().c_str(), 1);
}

PlantedKernel::~PlantedKernel() { unsetenv(wgsl::kKernelDirVariable); }

}  // namespace refract::testing
