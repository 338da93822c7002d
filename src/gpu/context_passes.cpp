// The context's timed passes: one command buffer with one compute pass of N back-to-back
// dispatches, timed on the host clock and, with the feature, by pass timestamps.
#include <algorithm>
#include <chrono>
#include <vector>

#include "base/error.h"
#include "gpu/context.h"
#include "gpu/context_state.h"

namespace refract::gpu {
namespace {

using Clock = std::chrono::steady_clock;

/// Finishes `encoder`, submits its commands and waits for the queue; returns the wall time of
/// the submit and the wait [ns]. Inside a Scoped call, which names `what`.
double TimedSubmit(Context::State& s, const CommandEncoderHandle& encoder, std::string_view what) {
  CommandBufferHandle commands =
      CommandBufferHandle::Adopt(wgpuCommandEncoderFinish(encoder.get(), nullptr));
  const Clock::time_point start = Clock::now();
  s.SubmitAndWait(commands.get(), what);
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

}  // namespace

PassTiming Context::RunPass(std::span<const Dispatch> dispatches, uint32_t repetitions,
                            bool timestamps) {
  State& s = *state_;
  REFRACT_THROW_IF(dispatches.empty() || repetitions == 0, GpuError, "a pass needs work");
  for (const Dispatch& dispatch : dispatches) {
    REFRACT_THROW_IF(!dispatch.pipeline, GpuError, "a dispatch has no pipeline");
    for (const BindGroup& group : dispatch.bind_groups) {
      REFRACT_THROW_IF(!group, GpuError, "a dispatch has an empty bind group");
    }
  }
  ++s.passes;
  if (s.passes == s.lose_device_before_pass) {
    wgpuDeviceForceLoss(s.device.get(), WGPUDeviceLostReason_Unknown,
                        View("injected by REFRACT_INJECT_DEVICE_LOSS before compute pass " +
                             std::to_string(s.passes)));
  }
  bool timed = timestamps && s.query_set;
  PassTiming timing;
  s.Scoped("running a compute pass", [&] {
    CommandEncoderHandle encoder =
        CommandEncoderHandle::Adopt(wgpuDeviceCreateCommandEncoder(s.device.get(), nullptr));
    WGPUPassTimestampWrites writes{};
    WGPUComputePassDescriptor pass_descriptor{};
    if (timed) {
      writes.querySet = s.query_set.get();
      writes.beginningOfPassWriteIndex = 0;
      writes.endOfPassWriteIndex = 1;
      pass_descriptor.timestampWrites = &writes;
    }
    ComputePassEncoderHandle pass = ComputePassEncoderHandle::Adopt(
        wgpuCommandEncoderBeginComputePass(encoder.get(), &pass_descriptor));
    const ComputePipeline::Impl* bound_pipeline = nullptr;
    std::vector<const BindGroup::Impl*> bound_groups;
    for (uint32_t repetition = 0; repetition < repetitions; ++repetition) {
      for (const Dispatch& dispatch : dispatches) {
        if (dispatch.pipeline.impl_.get() != bound_pipeline) {
          bound_pipeline = dispatch.pipeline.impl_.get();
          wgpuComputePassEncoderSetPipeline(pass.get(), bound_pipeline->pipeline.get());
        }
        bound_groups.resize(std::max(bound_groups.size(), dispatch.bind_groups.size()));
        for (uint32_t index = 0; index < dispatch.bind_groups.size(); ++index) {
          const BindGroup::Impl* group = dispatch.bind_groups[index].impl_.get();
          if (bound_groups[index] == group) continue;
          bound_groups[index] = group;
          wgpuComputePassEncoderSetBindGroup(pass.get(), index, group->bind_group.get(), 0,
                                             nullptr);
        }
        wgpuComputePassEncoderDispatchWorkgroups(pass.get(), dispatch.groups_x, dispatch.groups_y,
                                                 dispatch.groups_z);
      }
    }
    wgpuComputePassEncoderEnd(pass.get());
    if (timed) {
      wgpuCommandEncoderResolveQuerySet(encoder.get(), s.query_set.get(), 0, 2,
                                        s.resolve_buffer.get(), 0);
      wgpuCommandEncoderCopyBufferToBuffer(encoder.get(), s.resolve_buffer.get(), 0,
                                           s.readback_buffer.get(), 0, 16);
    }
    timing.wall_ns = TimedSubmit(s, encoder, "running a compute pass");
  });
  if (timed) {
    uint64_t stamps[2] = {0, 0};
    s.Scoped("reading pass timestamps", [&] {
      s.ReadMapped(s.readback_buffer.get(), sizeof(stamps), stamps, "reading pass timestamps");
    });
    timing.gpu_ns = stamps[1] >= stamps[0] ? static_cast<double>(stamps[1] - stamps[0]) : 0.0;
  }
  return timing;
}

double Context::EmptySubmitWallNs() {
  State& s = *state_;
  double wall_ns = 0;
  s.Scoped("submitting an empty command buffer", [&] {
    CommandEncoderHandle encoder =
        CommandEncoderHandle::Adopt(wgpuDeviceCreateCommandEncoder(s.device.get(), nullptr));
    wall_ns = TimedSubmit(s, encoder, "submitting an empty command buffer");
  });
  return wall_ns;
}

void Context::Settle() {
  for (int round = 0; round < 2; ++round) {
    EmptySubmitWallNs();  // waits for the queue, so the released objects are no longer in use
    wgpuDeviceTick(state_->device.get());
  }
}

}  // namespace refract::gpu
