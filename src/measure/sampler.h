// One measurement of a calibrated workload, with the timestamp sanity check.
#pragma once

#include <cstdint>
#include <string_view>

#include "measure/timer.h"
#include "measure/workload.h"

namespace refract::measure {

/// Timing methods as results record them.
inline constexpr std::string_view kGpuTimestampMethod = "gpu-timestamp";
inline constexpr std::string_view kWallClockMethod = "wall-clock";

/// Timestamp sanity thresholds; defaults are webgpu-bench's.
struct SamplerOptions {
  /// A sample can strike only when wall − overhead is at least this long [ms].
  double strike_min_wall_ms = 4;
  /// A strike: gpu × strike_factor < wall − overhead.
  double strike_factor = 2;
  /// Strikes in a row that demote the workload to wall clock for good [count].
  uint32_t strikes_to_demote = 2;
};

/// Where a measurement's time came from.
enum class TimeSource { kGpuTimestamp, kWallClock };

/// One measurement.
struct Measurement {
  double dispatch_ms = 0;  ///< (gpu, else wall) time of the batch / N [ms]
  TimeSource source = TimeSource::kWallClock;
  bool strike = false;       ///< the timestamps disagreed with the wall clock
  bool demoted_now = false;  ///< this measurement demoted the workload to wall clock
};

/// Measures one workload (keeps its strike count, so use one Sampler per workload).
class Sampler {
 public:
  /// `overhead_ms`: the suite's empty-submit time [ms]. `timer` must outlive the sampler.
  Sampler(Timer& timer, double overhead_ms, const SamplerOptions& options = {});

  /// Times one batch of `dispatch_count` dispatches. gpuWall = wall − overhead; when gpuWall ≥
  /// strike_min_wall_ms and gpu × strike_factor < gpuWall the sample is a strike and uses wall
  /// time; `strikes_to_demote` strikes in a row demote the workload to wall clock for good (a
  /// good GPU sample resets the count). Throws GpuError ("… the pass likely did no work") when
  /// the per-dispatch time is not finite or ≤ 0; timer errors propagate.
  Measurement Measure(Workload& workload, uint32_t dispatch_count);

  /// True once timestamps were demoted.
  bool IsDemoted() const { return demoted_; }
  /// kGpuTimestampMethod when GPU timestamps timed the samples and were never demoted, else
  /// kWallClockMethod.
  std::string_view TimingMethod() const;

 private:
  Timer& timer_;
  double overhead_ms_;
  SamplerOptions options_;
  uint32_t strikes_in_a_row_ = 0;
  bool demoted_ = false;
  bool used_gpu_ = false;
};

}  // namespace refract::measure
