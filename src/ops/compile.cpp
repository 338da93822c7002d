#include "ops/compile.h"

#include "kernels/embedded_kernels.h"

namespace refract::ops {

gpu::ComputePipeline CompileKernel(gpu::Context& context,
                                   std::initializer_list<std::string_view> files,
                                   const std::string& label, std::string_view entry,
                                   std::map<std::string, double> constants) {
  std::string source;
  for (std::string_view file : files) {
    source += wgsl::KernelSource(file);
    source += "\n";
  }
  return context.CreateComputePipeline({.wgsl = source,
                                        .label = label,
                                        .entry_point = std::string(entry),
                                        .constants = std::move(constants)});
}

}  // namespace refract::ops
