// The WGSL kernels of src/kernels/, embedded into the binary at build time.
#pragma once

#include <string_view>
#include <vector>

namespace refract::kernels {

/// One embedded kernel: `name` is the file name without ".wgsl".
struct EmbeddedKernel {
  std::string_view name;
  std::string_view source;
};

/// Every embedded kernel, sorted by name.
const std::vector<EmbeddedKernel>& AllKernels();

/// The WGSL source of src/kernels/<name>.wgsl; throws refract::Error when there is none.
std::string_view KernelSource(std::string_view name);

}  // namespace refract::kernels
