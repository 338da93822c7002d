// The plain record the scheduler fills for each workload; reporters only read it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "measure/linearity.h"
#include "measure/statistics.h"

namespace refract::measure {

enum class Status {
  kRunning,  ///< still being measured (only seen by observers)
  kOk,
  kError,    ///< calibration or measurement threw; `message` says why
  kSkipped,  ///< the run was asked to stop before the workload settled; `message` says why
};

/// The message of every workload or row that a stop request (SIGINT, SIGTERM) left unfinished.
inline constexpr std::string_view kInterruptedMessage = "interrupted";

enum class StopReason {
  kNone,         ///< running, or ended by an error
  kConverged,    ///< the best time stopped improving
  kMaxRounds,    ///< hit the sample budget
  kThrottled,    ///< cooldowns were used up while samples kept being discarded
  kSampleCount,  ///< took the fixed number of samples asked for
};

/// The statistic of the kept samples that stands for a workload's time.
enum class Headline {
  kMin,     ///< the best time (webgpu-bench's best-of-N)
  kMedian,  ///< the median, reported with p10–p90 (fixed sample counts)
};

/// Flags a reporter may highlight.
inline constexpr std::string_view kSuspectFlag = "suspect";      ///< linearity check failed
inline constexpr std::string_view kThrottledFlag = "throttled";  ///< stop reason throttled
inline constexpr std::string_view kTimestampDemotedFlag = "timestamp-demoted";
/// Fewer than kFewestSamplesForSpread kept samples: the row's spread is unknown.
inline constexpr std::string_view kFewSamplesFlag = "few-samples";

/// The fewest kept samples that state a spread: the convergence rule's own minimum before it
/// judges (min_rounds' default, webgpu-bench's). Below it the standard deviation rests on one
/// degree of freedom or none (with two samples Student's t is 12.7 and the deviation itself can
/// be off 30-fold), so a row that ends with fewer (samples set aside as throttled, or
/// --min-rounds 1) is flagged and its ci95 and stddev are left unknown (NaN), never 0.
inline constexpr size_t kFewestSamplesForSpread = 3;

/// Result of one workload.
struct WorkloadOutcome {
  std::string id;
  Status status = Status::kRunning;
  std::string message;  ///< why, when status is kError or kSkipped
  StopReason stop_reason = StopReason::kNone;
  std::vector<double> times_ms;      ///< kept per-dispatch times, in order [ms]
  std::vector<double> throttled_ms;  ///< discarded per-dispatch times, in order [ms]
  Statistics stats;                  ///< of times_ms [ms]
  std::string timing_method;         ///< "gpu-timestamp" or "wall-clock"
  uint64_t work = 0;                 ///< calibrated knob value (0 without a knob)
  uint32_t dispatches_per_sample = 0;
  double work_per_dispatch = 0;  ///< metric units one dispatch does at `work`
  double best_ms = 0;            ///< min of times_ms [ms]
  Headline headline = Headline::kMin;
  double metric_value = 0;  ///< work_per_dispatch / the headline time [units/s]
  LinearityVerdict linearity;
  std::vector<std::string> flags;  ///< kSuspectFlag, kThrottledFlag, kTimestampDemotedFlag,
                                   ///< kFewSamplesFlag
  std::vector<std::string> notes;  ///< calibration notes and timing events, in words
};

/// "", "converged", "max-rounds", "throttled", "sample-count".
std::string_view StopReasonName(StopReason reason);
/// "min" or "median".
const char* HeadlineName(Headline headline);

}  // namespace refract::measure
