#include "measure/workload_outcome.h"

#include "base/lookup.h"

namespace refract::measure {

std::string_view StopReasonName(StopReason reason) {
  static constexpr Entry<StopReason, std::string_view> kNames[] = {
      {StopReason::kNone, ""},
      {StopReason::kConverged, "converged"},
      {StopReason::kMaxRounds, "max-rounds"},
      {StopReason::kThrottled, "throttled"},
      {StopReason::kSampleCount, "sample-count"}};
  return Lookup(kNames, reason, {"unknown"});
}

const char* HeadlineName(Headline headline) {
  return headline == Headline::kMedian ? "median" : "min";
}

}  // namespace refract::measure
