// The production timer: pass timestamp writes on the GPU, wall clock beside them.
#pragma once

#include "gpu/context.h"
#include "measure/timer.h"

namespace refract::measure {

/// Times passes with timestamp writes; `gpu_ms` stays empty when the device lacks
/// timestamp-query.
class GpuTimestampTimer final : public Timer {
 public:
  /// `context` must outlive the timer.
  explicit GpuTimestampTimer(gpu::Context& context) : context_(context) {}
  Sample Time(Workload& workload, uint32_t dispatch_count) override;
  double EmptySubmitMs() override;

 private:
  gpu::Context& context_;
};

}  // namespace refract::measure
