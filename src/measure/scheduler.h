// When to stop: round-robin best-of-N sampling of a suite's workloads.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "measure/calibration.h"
#include "measure/clock.h"
#include "measure/sampler.h"
#include "measure/scheduler_observer.h"
#include "measure/stopping_rule.h"
#include "measure/timer.h"
#include "measure/workload.h"
#include "measure/workload_outcome.h"

namespace refract::measure {

/// The longest sleep between two asks of SchedulerOptions::stop_requested [ms].
inline constexpr double kStopCheckMs = 50;

/// Scheduling knobs; defaults are webgpu-bench's (docs/CEILINGS.md, "Measurement rules").
struct SchedulerOptions {
  /// What ends a workload's sampling (measure/stopping_rule.h).
  StoppingOptions stopping;
  /// A sample slower than throttle_factor × the workload's best so far is throttled.
  double throttle_factor = 1.2;
  /// Wait before every measurement except the schedule's first [ms].
  double idle_gap_ms = 100;
  /// Suite-wide pause after a round where ≥ 2 samples, and ≥ half of its samples, were
  /// throttled [ms].
  double cooldown_ms = 3000;
  /// Cooldowns allowed; the next such round ends every unsettled workload as throttled.
  uint32_t max_cooldowns = 3;
  /// Seeds the per-round measurement order (same order for the same seed, on every platform).
  uint64_t seed = 0;
  SamplerOptions sampler;
  /// Asked between measurements (never during one); once it returns true the schedule stops:
  /// every unsettled workload ends as skipped with kInterruptedMessage. Empty: never stop.
  std::function<bool()> stop_requested;
};

/// Measures `workloads` and returns one outcome each, in the same order.
///
/// 1. Overhead: MeasureOverheadMs once for the suite.
/// 2. Calibration phase: every workload is calibrated, in list order, before round 1; a
///    workload whose calibration throws ends as error, the others go on.
/// 3. Rounds: each round measures every unsettled workload once (Sampler::Measure with its
///    calibrated batch), in an order shuffled by std::mt19937_64(seed) (Fisher–Yates), with
///    clock.SleepMs(idle_gap_ms) before every measurement but the schedule's first. A sample
///    slower than throttle_factor × the best kept so far goes to throttled_ms when the stopping
///    rule sets such samples aside (best-of-N; a fixed count keeps them all); others are kept.
///    After each sample the stopping rule (options.stopping) may end the workload: converged
///    or max-rounds (webgpu-bench's convergence), or sample-count (a fixed count). The
///    workload's metric is work per dispatch over the rule's headline time (min or median).
/// 4. Cooldown: after a round with ≥ 2 throttled samples making ≥ half its samples, sleep
///    cooldown_ms; when max_cooldowns were already used, every unsettled workload ends as
///    throttled instead.
/// 5. Stop requests: options.stop_requested is asked before the overhead, before each
///    workload's calibration and before each measurement in a round; sleeps (idle gap,
///    cooldown) are taken in slices of at most kStopCheckMs while it is set, asking between
///    slices. Once it answers true, every unsettled workload ends as skipped
///    (kInterruptedMessage); settled ones keep their outcome.
/// Errors: a workload that throws (std::exception) ends as error with e.what(); a
/// DeviceLostError ends every unsettled workload as error with its message; a DeviceHungError
/// ends its workload as error with its message and every other unsettled one as error with
/// kNotRunAfterHang (nothing more can run on a hung device). When timestamps
/// get demoted the workload's earlier samples are dropped (they mixed timing methods) and
/// sampling goes on from the demoting sample.
/// ETA for OnRoundDone: (clock time since round 1 began / measurements so far) × the
/// measurements still possible (Σ over unsettled workloads of the rule's SamplesLeft); an
/// upper bound when workloads converge early.
/// `observer` may be null.
std::vector<WorkloadOutcome> RunSchedule(std::span<Workload* const> workloads, Timer& timer,
                                         Clock& clock, const SchedulerOptions& options,
                                         const CalibrationOptions& calibration_options,
                                         SchedulerObserver* observer);

}  // namespace refract::measure
