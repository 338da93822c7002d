// Building a Dispatch: one pipeline, its bind group 0, a workgroup grid.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu/context.h"

namespace refract::gpu {

/// Workgroups needed to cover `threads` with `workgroup_size` threads each (rounded up).
uint32_t GroupsFor(uint64_t threads, uint32_t workgroup_size);

/// The part of a buffer a dispatch binds: all of it, or `size` bytes from `offset` (a multiple of
/// the device's minStorageBufferOffsetAlignment). Ops take their buffers as slices, so a caller
/// can hand them one buffer's halves (a fused gate and up projection) or a layer's part of a
/// cache.
struct BufferSlice {
  BufferSlice() = default;
  BufferSlice(const gpu::Buffer& whole) : buffer(whole) {}  // NOLINT(google-explicit-constructor)
  BufferSlice(const gpu::Buffer& of, uint64_t from, uint64_t bytes)
      : buffer(of), offset(from), size(bytes) {}
  explicit operator bool() const { return static_cast<bool>(buffer); }

  gpu::Buffer buffer;
  uint64_t offset = 0;  // [bytes]
  uint64_t size = 0;    // [bytes]; 0: to the end of the buffer
};

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
  DispatchBuilder& Buffer(uint32_t binding, const BufferSlice& slice) {
    return Buffer(binding, slice.buffer, slice.offset, slice.size);
  }
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
