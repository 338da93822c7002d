// Compiling an op's WGSL: one embedded kernel file (or its REFRACT_KERNEL_DIR replacement), or
// several concatenated (shared parts first, then the kernel's own file).
#pragma once

#include <initializer_list>
#include <map>
#include <string>
#include <string_view>

#include "gpu/context.h"

namespace refract::ops {

/// Compiles entry point `entry` of the concatenation of the named kernel files (in order) with
/// the given override constants; a WGSL error throws GpuError carrying Dawn's message.
gpu::ComputePipeline CompileKernel(gpu::Context& context,
                                   std::initializer_list<std::string_view> files,
                                   const std::string& label, std::string_view entry = "main",
                                   std::map<std::string, double> constants = {});

}  // namespace refract::ops
