// The fallback timer: host wall clock only, no timestamp writes in the pass.
#pragma once

#include "gpu/context.h"
#include "measure/timer.h"

namespace refract::measure {

/// Times passes on the host clock; `gpu_ms` is always empty.
class WallClockTimer final : public Timer {
 public:
  /// `context` must outlive the timer.
  explicit WallClockTimer(gpu::Context& context) : context_(context) {}
  Sample Time(Workload& workload, uint32_t dispatch_count) override;
  double EmptySubmitMs() override;

 private:
  gpu::Context& context_;
};

}  // namespace refract::measure
