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
  }
  return "unknown";
}

}  // namespace refract::measure
