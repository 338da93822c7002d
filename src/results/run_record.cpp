#include "results/run_record.h"

#include <string>

#include "base/error.h"

namespace refract::results {

std::string_view ToString(RowStatus status) {
  switch (status) {
    case RowStatus::kRunning:
      return "running";
    case RowStatus::kOk:
      return "ok";
    case RowStatus::kSkipped:
      return "skipped";
    case RowStatus::kError:
      return "error";
  }
  return "unknown";
}

RowStatus RowStatusFromString(std::string_view text) {
  for (RowStatus status :
       {RowStatus::kRunning, RowStatus::kOk, RowStatus::kSkipped, RowStatus::kError}) {
    if (ToString(status) == text) return status;
  }
  throw Error("unknown row status '" + std::string(text) +
              "' (expected running, ok, skipped or error)");
}

bool IsFinal(RowStatus status) { return status != RowStatus::kRunning; }

}  // namespace refract::results
