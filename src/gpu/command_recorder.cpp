#include "gpu/command_recorder.h"

#include <algorithm>

#include "base/error.h"
#include "gpu/context_state.h"

namespace refract::gpu {

struct TimestampQueries::Impl {
  QuerySetHandle query_set;
  BufferHandle resolve;   // QueryResolve | CopySrc
  BufferHandle readback;  // MapRead | CopyDst
  uint32_t count = 0;
};

TimestampQueries::TimestampQueries(Context& context, uint32_t count)
    : context_(context), impl_(std::make_unique<Impl>()) {
  REFRACT_THROW_IF(!context.HasFeature(Feature::kTimestampQuery), GpuError,
                   "timestamps need the device's timestamp-query feature");
  REFRACT_THROW_IF(count == 0 || count > 4096, GpuError,
                   std::string("a timestamp query set holds 1 to 4096 timestamps, not ") +
                       std::to_string(count));
  Context::State& s = *context.state_;
  impl_->count = count;
  s.Scoped("creating timestamp queries", [&] {
    WGPUQuerySetDescriptor descriptor{};
    descriptor.label = View("refract recorder timestamps");
    descriptor.type = WGPUQueryType_Timestamp;
    descriptor.count = count;
    impl_->query_set = QuerySetHandle::Adopt(wgpuDeviceCreateQuerySet(s.device.get(), &descriptor));
    impl_->resolve =
        s.MakeBuffer(uint64_t{count} * 8, WGPUBufferUsage_QueryResolve | WGPUBufferUsage_CopySrc,
                     "refract recorder timestamp resolve");
    impl_->readback =
        s.MakeBuffer(uint64_t{count} * 8, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst,
                     "refract recorder timestamp read-back");
  });
}

TimestampQueries::~TimestampQueries() = default;

uint32_t TimestampQueries::count() const { return impl_->count; }

std::vector<uint64_t> TimestampQueries::Read(uint32_t count) {
  REFRACT_THROW_IF(count == 0 || count > impl_->count, GpuError,
                   std::string("reading ") + std::to_string(count) + " of " +
                       std::to_string(impl_->count) + " timestamps");
  Context::State& s = *context_.state_;
  std::vector<uint64_t> stamps(count);
  s.Scoped("reading timestamps", [&] {
    CommandEncoderHandle encoder =
        CommandEncoderHandle::Adopt(wgpuDeviceCreateCommandEncoder(s.device.get(), nullptr));
    wgpuCommandEncoderResolveQuerySet(encoder.get(), impl_->query_set.get(), 0, count,
                                      impl_->resolve.get(), 0);
    wgpuCommandEncoderCopyBufferToBuffer(encoder.get(), impl_->resolve.get(), 0,
                                         impl_->readback.get(), 0, uint64_t{count} * 8);
    CommandBufferHandle commands =
        CommandBufferHandle::Adopt(wgpuCommandEncoderFinish(encoder.get(), nullptr));
    s.SubmitAndWait(commands.get(), "reading timestamps");
    s.ReadMapped(impl_->readback.get(), uint64_t{count} * 8, stamps.data(), "reading timestamps");
  });
  return stamps;
}

struct CommandRecorder::Impl {
  CommandEncoderHandle encoder;
  ComputePassEncoderHandle pass;
  const ComputePipeline::Impl* bound_pipeline = nullptr;
  std::vector<const BindGroup::Impl*> bound_groups;
  WGPUPassTimestampWrites writes{};
};

CommandRecorder::CommandRecorder(Context& context)
    : context_(context), impl_(std::make_unique<Impl>()) {}

CommandRecorder::~CommandRecorder() {
  if (impl_->pass) wgpuComputePassEncoderEnd(impl_->pass.get());
}

void CommandRecorder::Open() {
  if (impl_->encoder) return;
  impl_->encoder = CommandEncoderHandle::Adopt(
      wgpuDeviceCreateCommandEncoder(context_.state_->device.get(), nullptr));
}

void CommandRecorder::BeginPass(TimestampQueries* queries, uint32_t begin, uint32_t end) {
  REFRACT_THROW_IF(impl_->pass, GpuError, "a pass began inside another");
  Open();
  WGPUComputePassDescriptor descriptor{};
  if (queries != nullptr) {
    REFRACT_THROW_IF(begin >= queries->count() || end >= queries->count(), GpuError,
                     "a pass timestamp past its query set");
    impl_->writes = WGPUPassTimestampWrites{};
    impl_->writes.querySet = queries->impl_->query_set.get();
    impl_->writes.beginningOfPassWriteIndex = begin;
    impl_->writes.endOfPassWriteIndex = end;
    descriptor.timestampWrites = &impl_->writes;
  }
  impl_->pass = ComputePassEncoderHandle::Adopt(
      wgpuCommandEncoderBeginComputePass(impl_->encoder.get(), &descriptor));
  impl_->bound_pipeline = nullptr;
  impl_->bound_groups.clear();
  ++passes_;
}

void CommandRecorder::Dispatch(const gpu::Dispatch& dispatch) {
  REFRACT_THROW_IF(!impl_->pass, GpuError, "a dispatch outside a pass");
  REFRACT_THROW_IF(!dispatch.pipeline, GpuError, "a dispatch has no pipeline");
  WGPUComputePassEncoder pass = impl_->pass.get();
  if (dispatch.pipeline.impl_.get() != impl_->bound_pipeline) {
    impl_->bound_pipeline = dispatch.pipeline.impl_.get();
    wgpuComputePassEncoderSetPipeline(pass, impl_->bound_pipeline->pipeline.get());
  }
  std::vector<const BindGroup::Impl*>& bound = impl_->bound_groups;
  bound.resize(std::max(bound.size(), dispatch.bind_groups.size()));
  for (uint32_t index = 0; index < dispatch.bind_groups.size(); ++index) {
    const BindGroup::Impl* group = dispatch.bind_groups[index].impl_.get();
    REFRACT_THROW_IF(group == nullptr, GpuError, "a dispatch has an empty bind group");
    if (bound[index] == group) continue;
    bound[index] = group;
    wgpuComputePassEncoderSetBindGroup(pass, index, group->bind_group.get(), 0, nullptr);
  }
  wgpuComputePassEncoderDispatchWorkgroups(pass, dispatch.groups_x, dispatch.groups_y,
                                           dispatch.groups_z);
  ++dispatches_;
}

void CommandRecorder::EndPass() {
  REFRACT_THROW_IF(!impl_->pass, GpuError, "ending a pass that did not begin");
  wgpuComputePassEncoderEnd(impl_->pass.get());
  impl_->pass.Reset();
}

void CommandRecorder::Copy(const Buffer& source, uint64_t source_offset, const Buffer& destination,
                           uint64_t destination_offset, uint64_t size) {
  REFRACT_THROW_IF(impl_->pass, GpuError, "a copy inside a pass");
  REFRACT_THROW_IF(!source || !destination, GpuError, "a copy of an empty buffer handle");
  Open();
  wgpuCommandEncoderCopyBufferToBuffer(impl_->encoder.get(), source.impl_->buffer.get(),
                                       source_offset, destination.impl_->buffer.get(),
                                       destination_offset, size);
}

void CommandRecorder::Submit() {
  REFRACT_THROW_IF(impl_->pass, GpuError, "submitting with a pass still open");
  Open();
  CommandBufferHandle commands =
      CommandBufferHandle::Adopt(wgpuCommandEncoderFinish(impl_->encoder.get(), nullptr));
  impl_->encoder.Reset();
  WGPUCommandBuffer raw = commands.get();
  wgpuQueueSubmit(context_.state_->queue.get(), 1, &raw);
  ++submits_;
}

}  // namespace refract::gpu
