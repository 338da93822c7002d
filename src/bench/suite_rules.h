// A suite's own rules over its finished rows: the hooks the shared runner calls.
#pragma once

#include <vector>

#include "results/run_record.h"

namespace refract::bench {

/// A suite's own rules, which the runner applies once every row is measured.
class SuiteRules {
 public:
  virtual ~SuiteRules() = default;
  /// Adds the suite's flags to the finished rows (e.g. the ceilings' impossible-rate check).
  virtual void Review(std::vector<results::ResultRow>& rows) const { static_cast<void>(rows); }
  /// What the suite derives from the rows (e.g. the device's ceilings); empty by default.
  virtual results::Summary Summarize(const std::vector<results::ResultRow>& rows) const {
    static_cast<void>(rows);
    return {};
  }
};

}  // namespace refract::bench
