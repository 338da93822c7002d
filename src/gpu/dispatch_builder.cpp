#include "gpu/dispatch_builder.h"

#include "base/error.h"

namespace refract::gpu {

uint32_t GroupsFor(uint64_t threads, uint32_t workgroup_size) {
  REFRACT_THROW_IF(workgroup_size == 0, Error, "a workgroup needs at least one thread");
  const uint64_t groups = (threads + workgroup_size - 1) / workgroup_size;
  REFRACT_THROW_IF(groups > UINT32_MAX, Error,
                   std::to_string(threads) + " threads need more workgroups than a dispatch holds");
  return static_cast<uint32_t>(groups);
}

DispatchBuilder::DispatchBuilder(Context& context, const ComputePipeline& pipeline)
    : context_(context), pipeline_(pipeline) {}

DispatchBuilder& DispatchBuilder::Buffer(uint32_t binding, const gpu::Buffer& buffer,
                                         uint64_t offset, uint64_t size) {
  entries_.push_back({binding, BufferBinding{buffer, offset, size}});
  return *this;
}

DispatchBuilder& DispatchBuilder::Texture(uint32_t binding, const gpu::Texture& texture) {
  entries_.push_back({binding, texture});
  return *this;
}

DispatchBuilder& DispatchBuilder::Sampler(uint32_t binding, const gpu::Sampler& sampler) {
  entries_.push_back({binding, sampler});
  return *this;
}

DispatchBuilder& DispatchBuilder::Groups(uint32_t x, uint32_t y, uint32_t z) {
  const uint32_t limit = context_.limits().max_compute_workgroups_per_dimension;
  if (limit > 0 && x > limit && y == 1) {
    y = (x + limit - 1) / limit;
    x = (x + y - 1) / y;
  }
  x_ = x, y_ = y, z_ = z;
  return *this;
}

Dispatch DispatchBuilder::Build() {
  Dispatch dispatch;
  dispatch.pipeline = pipeline_;
  dispatch.bind_groups = {context_.CreateBindGroup(pipeline_, 0, entries_)};
  dispatch.groups_x = x_;
  dispatch.groups_y = y_;
  dispatch.groups_z = z_;
  return dispatch;
}

}  // namespace refract::gpu
