#include "measure/sampler.h"

#include <cmath>
#include <string>

#include "base/error.h"
#include "measure/format.h"

namespace refract::measure {

Sampler::Sampler(Timer& timer, double overhead_ms, const SamplerOptions& options)
    : timer_(timer), overhead_ms_(overhead_ms), options_(options) {}

Measurement Sampler::Measure(Workload& workload, uint32_t dispatch_count) {
  const Sample sample = timer_.Time(workload, dispatch_count);
  Measurement measurement;
  double batch_ms = sample.wall_ms;
  if (sample.gpu_ms && !demoted_) {
    const double gpu_wall_ms = sample.wall_ms - overhead_ms_;
    measurement.strike = gpu_wall_ms >= options_.strike_min_wall_ms &&
                         *sample.gpu_ms * options_.strike_factor < gpu_wall_ms;
    if (measurement.strike) {
      if (++strikes_in_a_row_ >= options_.strikes_to_demote) {
        demoted_ = true;
        measurement.demoted_now = true;
      }
    } else {
      strikes_in_a_row_ = 0;
      used_gpu_ = true;
      batch_ms = *sample.gpu_ms;
      measurement.source = TimeSource::kGpuTimestamp;
    }
  }
  measurement.dispatch_ms = batch_ms / static_cast<double>(dispatch_count);
  REFRACT_THROW_IF(
      !std::isfinite(measurement.dispatch_ms) || measurement.dispatch_ms <= 0, GpuError,
      StrFormat("%s: %g ms per dispatch (%u dispatches): the pass likely did no work",
                std::string(workload.id()).c_str(), measurement.dispatch_ms, dispatch_count));
  return measurement;
}

std::string_view Sampler::TimingMethod() const {
  return used_gpu_ && !demoted_ ? kGpuTimestampMethod : kWallClockMethod;
}

}  // namespace refract::measure
