// Runs selected ceilings rows: requirement check, preparation, verification against the CPU
// model, then the measurement engine; returns one results row each.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpu/context.h"
#include "measure/calibration.h"
#include "measure/scheduler.h"
#include "results/run_record.h"
#include "suites/ceilings/ceiling_row.h"

namespace refract::suites::ceilings {

struct CeilingsRunOptions {
  measure::SchedulerOptions scheduler;
  measure::CalibrationOptions calibration;
  /// Time with pass timestamps when the device has them (else wall clock only).
  bool use_timestamps = true;
};

/// Progress of a run, for the terminal. Methods must not throw.
class CeilingsProgress {
 public:
  virtual ~CeilingsProgress() = default;
  /// A row changed: skipped, failed, verified, got a sample, or settled.
  virtual void OnRow(const results::ResultRow& row) { static_cast<void>(row); }
  virtual void OnRound(int round, int settled, int total, double eta_s) {
    static_cast<void>(round), static_cast<void>(settled), static_cast<void>(total),
        static_cast<void>(eta_s);
  }
};

/// Runs `rows` on `context`. A row the device cannot run is `skipped` with the reason; a row
/// whose preparation or verification fails is `error` with the message and is never timed;
/// the rest are measured together by measure::RunSchedule. A lost device ends every row not yet
/// done as `error`. Rows come back in the order given. `progress` may be null.
std::vector<results::ResultRow> RunCeilings(gpu::Context& context,
                                            std::vector<std::unique_ptr<CeilingRow>>& rows,
                                            const CeilingsRunOptions& options,
                                            CeilingsProgress* progress);

/// The device's ceilings from a run's rows: "read_bandwidth_Bps", "write_bandwidth_Bps", peak
/// FMA rate per type ("f32_fma_flops", "f16_fma_flops", "i32_mad_ops", "i8_dp4a_ops"), and
/// each math row's rate over its type's peak FMA rate ("<id>_ratio"). Only ok rows without a
/// suspect flag count: a suspect figure never becomes a ceiling.
std::map<std::string, double> SummarizeCeilings(const std::vector<results::ResultRow>& rows);

/// Flags `suspect` every ok row whose rate exceeds its type's peak FMA rate although its op
/// cannot be cheaper than an FMA (division, roots, transcendentals, conversions, bit ops,
/// branches): a hoisted or folded loop, not a fast GPU.
void FlagImpossibleRates(std::vector<results::ResultRow>& rows);

}  // namespace refract::suites::ceilings
