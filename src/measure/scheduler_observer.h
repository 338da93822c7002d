// Progress callbacks of RunSchedule, e.g. for the terminal's live table.
#pragma once

#include <cstddef>
#include <cstdint>

#include "measure/calibration.h"
#include "measure/workload_outcome.h"

namespace refract::measure {

/// Receives progress; every method defaults to doing nothing. Indices are positions in the
/// workload list given to RunSchedule. Callbacks must not throw.
class SchedulerObserver {
 public:
  virtual ~SchedulerObserver() = default;
  /// Workload `index` finished calibration.
  virtual void OnCalibrated(size_t index, const Calibration& calibration) {
    static_cast<void>(index), static_cast<void>(calibration);
  }
  /// Workload `index` got a sample (kept or throttled); `so_far` is its outcome now.
  virtual void OnSample(size_t index, const WorkloadOutcome& so_far) {
    static_cast<void>(index), static_cast<void>(so_far);
  }
  /// Workload `index` ended (ok or error); `outcome` is final.
  virtual void OnSettled(size_t index, const WorkloadOutcome& outcome) {
    static_cast<void>(index), static_cast<void>(outcome);
  }
  /// Round `round` (1-based) ended; `settled` of `total` workloads are done. `eta_s` estimates
  /// the time left [s] (see RunSchedule).
  virtual void OnRoundDone(uint32_t round, size_t settled, size_t total, double eta_s) {
    static_cast<void>(round), static_cast<void>(settled), static_cast<void>(total),
        static_cast<void>(eta_s);
  }
  /// Cooldown number `count` (1-based) starts now.
  virtual void OnCooldown(uint32_t count) { static_cast<void>(count); }
};

}  // namespace refract::measure
