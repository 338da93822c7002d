#include "results/run_record.h"

#include <string>

#include "base/error.h"
#include "base/lookup.h"

namespace refract::results {
namespace {

constexpr Entry<RowStatus, std::string_view> kStatusNames[] = {{RowStatus::kRunning, "running"},
                                                               {RowStatus::kOk, "ok"},
                                                               {RowStatus::kSkipped, "skipped"},
                                                               {RowStatus::kError, "error"}};

}  // namespace

std::string_view ToString(RowStatus status) { return Lookup(kStatusNames, status, {"unknown"}); }

RowStatus RowStatusFromString(std::string_view text) {
  if (std::optional<RowStatus> status = KeyOf(kStatusNames, text)) return *status;
  throw Error("unknown row status '" + std::string(text) +
              "' (expected running, ok, skipped or error)");
}

bool IsFinal(RowStatus status) { return status != RowStatus::kRunning; }

}  // namespace refract::results
