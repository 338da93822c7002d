#include "base/error.h"
#include "kernels/embedded_kernels.h"

namespace refract::kernels {

std::string_view KernelSource(std::string_view name) {
  for (const EmbeddedKernel& kernel : AllKernels()) {
    if (kernel.name == name) return kernel.source;
  }
  throw Error("no embedded kernel named '" + std::string(name) + "'");
}

}  // namespace refract::kernels
