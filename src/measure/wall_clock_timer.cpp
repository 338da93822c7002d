#include "measure/wall_clock_timer.h"

namespace refract::measure {

namespace {
constexpr double kMsPerNs = 1e-6;
}  // namespace

Sample WallClockTimer::Time(Workload& workload, uint32_t dispatch_count) {
  const gpu::PassTiming timing =
      context_.RunPass(workload.Dispatches(), dispatch_count, /*timestamps=*/false);
  return Sample{timing.wall_ns * kMsPerNs, std::nullopt};
}

double WallClockTimer::EmptySubmitMs() { return context_.EmptySubmitWallNs() * kMsPerNs; }

}  // namespace refract::measure
