#include "ops/op.h"

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

Kernel WithFreshScratch(gpu::Context& context, const Kernel& kernel) {
  if (kernel.scratch.empty()) return kernel;
  Kernel call = kernel;  // handles: the pipelines and shared buffers are not copied
  for (const Scratch& scratch : kernel.scratch) {
    call.buffers.push_back(context.CreateBuffer(scratch.bytes, gpu::kUsageStorage, scratch.label));
  }
  return call;
}

gpu::Dispatch OneDispatch(gpu::Context& context, const gpu::ComputePipeline& pipeline,
                          std::initializer_list<gpu::BufferSlice> slices, uint32_t groups_x,
                          uint32_t groups_y, uint32_t groups_z) {
  gpu::DispatchBuilder builder(context, pipeline);
  uint32_t binding = 0;
  for (const gpu::BufferSlice& slice : slices) {
    if (slice) builder.Buffer(binding, slice);
    ++binding;
  }
  return builder.Groups(groups_x, groups_y, groups_z).Build();
}

}  // namespace refract::ops
