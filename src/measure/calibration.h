// Per-workload calibration: work ramp, linearity check, batch sizing, warm-up.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "measure/linearity.h"
#include "measure/timer.h"
#include "measure/workload.h"

namespace refract::measure {

/// Calibration knobs; defaults are webgpu-bench's (docs/CEILINGS.md, "Measurement rules").
struct CalibrationOptions {
  /// Empty submits whose minimum wall time is the suite's overhead [count].
  uint32_t overhead_probes = 3;
  /// Work ramp: the time one dispatch should take [ms].
  double target_dispatch_ms = 10;
  /// The ramp stops once one dispatch takes ≥ this fraction of target_dispatch_ms ("about 10 ms").
  double ramp_done_fraction = 0.9;
  /// Largest growth of the knob or of the batch per step [factor].
  double max_growth = 4;
  /// Safety bound on ramp probes; the ramp normally ends far earlier [count].
  uint32_t max_ramp_probes = 40;
  /// Batch sizing stops once a batch takes half of this wall time (webgpu-bench's targetMs) [ms].
  double batch_target_ms = 100;
  /// Growth aims each probe at this fraction of batch_target_ms: a little above the stop
  /// threshold, so the final batch lands just past it (not creeping up under it) and samples
  /// stay short — sample length is most of a suite's run time [fraction].
  double batch_aim_fraction = 0.6;
  uint32_t max_batch_probes = 12;
  uint32_t max_dispatches = 200000;
  /// Batches run and discarded after sizing [count].
  uint32_t warmup_batches = 1;
  LinearityOptions linearity;
};

/// One batch-sizing probe: `dispatches` back-to-back took `wall_ms` [ms].
struct BatchProbe {
  uint32_t dispatches = 0;
  double wall_ms = 0;  // [ms]
};

/// What calibration decided, and what it saw on the way.
struct Calibration {
  double overhead_ms = 0;  ///< the suite's empty-submit overhead used [ms]
  bool has_work_knob = false;
  uint64_t work = 0;                     ///< final knob value (0 without a knob)
  uint32_t dispatches_per_sample = 1;    ///< N, the batch every measurement runs
  std::vector<WorkProbe> work_probes;    ///< the ramp, in order
  std::vector<BatchProbe> batch_probes;  ///< batch sizing, in order
  LinearityVerdict linearity;
  std::vector<std::string> notes;  ///< caps hit and other facts worth showing
};

/// The suite's launch overhead: minimum wall time of `overhead_probes` empty submits [ms]
/// (non-finite or negative readings are ignored; 0 when none is usable).
double MeasureOverheadMs(Timer& timer, const CalibrationOptions& options);

/// Calibrates `workload` and leaves its knob at the chosen value:
/// 1. Work ramp (only with a knob): from MinWork (at least 1), one dispatch a probe, time
///    t = gpu time, else wall − `overhead_ms` (clamped to ≥ 1e-6 ms, so a 0 reading grows by
///    max_growth); next = min(MaxWork, max(work + 1, ⌊min(work × target / t, work × growth)⌋))
///    until t ≥ ramp_done_fraction × target or the knob is at MaxWork.
/// 2. Linearity: one dispatch at lo (lo = work/4, else work/2, else work: the first that fits
///    the knob's range) for the probe budget, then `linearity.tries` rounds of one dispatch at
///    lo, 2·lo and 4·lo each, interleaved; each point takes its minimum, and the gap to its
///    next fastest try as its noise. The fixed cost of a dispatch, 2·t(lo) − t(2·lo), is taken
///    out of the upper two, and that pair is judged. The correction is skipped (times judged
///    as measured) when t(2·lo) or t(4·lo) grows less than flat_growth over the point below,
///    or t(2·lo) by no more than the two points' noise: a difference of noisy times must not
///    turn a flat time into a linear one. A verdict too noisy to call (JudgeLinearity) gets
///    `tries` more rounds, up to `noisy_retries` times. Without room for three points in the
///    knob's range or in linearity.max_probe_ms: the pair (work/2, work) or (work, 2·work),
///    measured the same way; a row too slow even for that stays unchecked. The ramp probes are
///    judged only when no pair could be measured (JudgeLinearity).
/// 3. Batch sizing on raw wall time: from 1 dispatch, next = max(n + 1, ⌊n × min(growth,
///    batch_aim_fraction × batch_target / wall)⌋) (× growth for a 0 reading), capped at
///    max_dispatches; stops once a
///    batch takes ≥ batch_target / 2, at the cap, or after max_batch_probes probes (keeping the
///    last probed size).
/// 4. `warmup_batches` batches of that size, discarded.
/// A non-finite reading throws GpuError; timer errors propagate.
Calibration Calibrate(Workload& workload, Timer& timer, double overhead_ms,
                      const CalibrationOptions& options);

}  // namespace refract::measure
