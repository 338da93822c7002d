#include "ops/op.h"

#include <span>
#include <vector>

#include "base/error.h"
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
    if (scratch.fill == 0) {  // WebGPU zeroes a new buffer
      call.buffers.push_back(
          context.CreateBuffer(scratch.bytes, gpu::kUsageStorage, scratch.label));
      continue;
    }
    if (scratch.bytes % 4 != 0) {
      throw Error("scratch '" + scratch.label + "' of " + std::to_string(scratch.bytes) +
                  " bytes is no whole number of the words it is filled with");
    }
    gpu::Buffer buffer =
        context.CreateBuffer(scratch.bytes, gpu::kUsageStorage | gpu::kUsageCopyDst, scratch.label);
    const std::vector<uint32_t> words(scratch.bytes / 4, scratch.fill);
    context.WriteBuffer(buffer, 0, std::as_bytes(std::span(words)));
    call.buffers.push_back(std::move(buffer));
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
