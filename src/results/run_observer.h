// Progress of a run as it happens, in result rows: what the live table shows.
#pragma once

#include "results/run_record.h"

namespace refract::results {

/// Receives a run's progress. Called from the measuring thread; methods must not throw.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  /// A row changed: skipped, failed, verified, got a sample, or settled.
  virtual void OnRow(const ResultRow& row) = 0;
  /// Round `round` (1-based) ended; `settled` of `total` measured rows are done; `eta_s`
  /// estimates the time left [s] (NaN: unknown).
  virtual void OnProgress(int round, int settled, int total, double eta_s) = 0;
};

}  // namespace refract::results
