#include "ops/op.h"

#include <algorithm>
#include <vector>

#include "kernels/embedded_kernels.h"

namespace refract::ops {

gpu::ComputePipeline CompileKernel(gpu::Context& context, const std::vector<std::string_view>& files,
                                   const std::string& label, std::string_view entry,
                                   std::map<std::string, double> constants) {
  std::vector<std::string_view> directives;
  std::string body;
  for (std::string_view file : files) {
    std::string_view text = wgsl::KernelSource(file);
    while (!text.empty()) {
      const size_t end = std::min(text.find('\n'), text.size());
      const std::string_view line = text.substr(0, end);
      text.remove_prefix(std::min(end + 1, text.size()));
      if (!line.starts_with("enable ") && !line.starts_with("requires ")) {
        body.append(line).append("\n");
      } else if (std::find(directives.begin(), directives.end(), line) == directives.end()) {
        directives.push_back(line);
      }
    }
  }
  std::string source;
  for (std::string_view directive : directives) source.append(directive).append("\n");
  source += body;
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
