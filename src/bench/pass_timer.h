// The production timer: a benchmark's dispatches recorded N times in one compute pass, timed by
// the host clock and, when asked and available, by pass timestamps on the GPU.
#pragma once

#include "gpu/context.h"
#include "measure/timer.h"

namespace refract::bench {

/// Times bench::Benchmark workloads (any other workload throws refract::Error).
class PassTimer final : public measure::Timer {
 public:
  /// `context` must outlive the timer. With `timestamps` (and the device's timestamp-query)
  /// samples carry `gpu_ms`; otherwise only the wall clock.
  PassTimer(gpu::Context& context, bool timestamps) : context_(context), timestamps_(timestamps) {}
  measure::Sample Time(measure::Workload& workload, uint32_t dispatch_count) override;
  double EmptySubmitMs() override;

 private:
  gpu::Context& context_;
  bool timestamps_;
};

}  // namespace refract::bench
