// Building a Dispatch: one pipeline, its bind group 0, a workgroup grid.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu/context.h"

namespace refract::gpu {

/// Workgroups needed to cover `threads` with `workgroup_size` threads each (rounded up).
uint32_t GroupsFor(uint64_t threads, uint32_t workgroup_size);

/// Builds a Dispatch step by step:
///   Dispatch d = DispatchBuilder(context, pipeline).Buffer(0, params).Buffer(1,
///   out).Groups(n).Build();
class DispatchBuilder {
 public:
  /// `context` and `pipeline` must outlive the builder.
  DispatchBuilder(Context& context, const ComputePipeline& pipeline);

  /// Binds the whole of `buffer` (or `size` bytes from `offset`) at `binding` of group 0.
  DispatchBuilder& Buffer(uint32_t binding, const gpu::Buffer& buffer, uint64_t offset = 0,
                          uint64_t size = 0);
  DispatchBuilder& Texture(uint32_t binding, const gpu::Texture& texture);
  DispatchBuilder& Sampler(uint32_t binding, const gpu::Sampler& sampler);

  /// The workgroup grid; a 1-D count above the device's per-dimension limit is split into
  /// x × y (the kernel then derives its index from both, as its contract says).
  DispatchBuilder& Groups(uint32_t x, uint32_t y = 1, uint32_t z = 1);

  /// Creates the bind group (GpuError on a mismatch with the shader) and returns the dispatch.
  Dispatch Build();

 private:
  Context& context_;
  ComputePipeline pipeline_;
  std::vector<BindingEntry> entries_;
  uint32_t x_ = 1, y_ = 1, z_ = 1;
};

}  // namespace refract::gpu
