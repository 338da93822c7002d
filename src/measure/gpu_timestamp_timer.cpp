#include "measure/gpu_timestamp_timer.h"

#include <optional>

namespace refract::measure {

namespace {
constexpr double kMsPerNs = 1e-6;
}  // namespace

Sample GpuTimestampTimer::Time(Workload& workload, uint32_t dispatch_count) {
  const gpu::PassTiming timing =
      context_.RunPass(workload.Dispatches(), dispatch_count, /*timestamps=*/true);
  Sample sample;
  sample.wall_ms = timing.wall_ns * kMsPerNs;
  if (timing.gpu_ns) sample.gpu_ms = *timing.gpu_ns * kMsPerNs;
  return sample;
}

double GpuTimestampTimer::EmptySubmitMs() { return context_.EmptySubmitWallNs() * kMsPerNs; }

}  // namespace refract::measure
