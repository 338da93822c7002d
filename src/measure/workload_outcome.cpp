#include "measure/workload_outcome.h"

namespace refract::measure {

const char* StatusName(Status status) {
  switch (status) {
    case Status::kRunning:
      return "running";
    case Status::kOk:
      return "ok";
    case Status::kError:
      return "error";
    case Status::kSkipped:
      return "skipped";
  }
  return "unknown";
}

const char* StopReasonName(StopReason reason) {
  switch (reason) {
    case StopReason::kNone:
      return "";
    case StopReason::kConverged:
      return "converged";
    case StopReason::kMaxRounds:
      return "max-rounds";
    case StopReason::kThrottled:
      return "throttled";
    case StopReason::kSampleCount:
      return "sample-count";
  }
  return "unknown";
}

const char* HeadlineName(Headline headline) {
  return headline == Headline::kMedian ? "median" : "min";
}

}  // namespace refract::measure
