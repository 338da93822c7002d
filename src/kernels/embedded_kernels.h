// The WGSL kernels of src/kernels/ (plain .wgsl files and those generated from .wgsl.in fragments),
// embedded into the binary at build time.
#pragma once

#include <string_view>
#include <vector>

namespace refract::wgsl {

/// One embedded kernel: `name` is the file name without ".wgsl" (or ".wgsl.in").
struct EmbeddedKernel {
  std::string_view name;
  std::string_view source;
};

/// Every embedded kernel, sorted by name.
const std::vector<EmbeddedKernel>& AllKernels();

/// Environment variable naming a folder of .wgsl files that replace embedded kernels of the same
/// name: a kernel author's way to try a variant without rebuilding. Replacements are verified
/// against the same CPU models as the originals.
inline constexpr const char* kKernelDirVariable = "REFRACT_KERNEL_DIR";

/// The WGSL source of src/kernels/<name>.wgsl, or the one generated from src/kernels/<name>.wgsl.in
/// (or of its replacement <name>.wgsl in REFRACT_KERNEL_DIR); throws refract::Error when there is
/// none.
std::string_view KernelSource(std::string_view name);

}  // namespace refract::wgsl
