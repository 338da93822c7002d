// When to stop sampling a workload, and which statistic of its kept samples stands for its
// time. Split from the scheduler (which decides order, idle gaps, throttling and cooldowns), as
// nvbench keeps its stopping criteria apart.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "measure/workload_outcome.h"

namespace refract::measure {

/// The rules refract offers.
enum class StoppingKind {
  kConvergence,  ///< webgpu-bench's best-of-N: stop once the best time stops improving
  kFixedCount,   ///< a fixed number of samples, all kept, summarised by the median and p10–p90
};

/// Knobs of both rules; defaults are webgpu-bench's (docs/CEILINGS.md, "Measurement rules").
struct StoppingOptions {
  StoppingKind kind = StoppingKind::kConvergence;
  /// Convergence: kept samples needed before convergence is judged [count].
  uint32_t min_rounds = 3;
  /// Convergence: kept samples that end a workload as max-rounds; kept + throttled ≥
  /// 2 × max_rounds does too [count].
  uint32_t max_rounds = 10;
  /// Convergence: converged when min(all kept) ≥ (1 − tolerance) × min(all kept but the last
  /// stable_rounds).
  uint32_t stable_rounds = 2;
  double tolerance = 0.01;
  /// Fixed count: kept samples to take; kept + throttled ≥ 2 × samples ends the workload too.
  uint32_t samples = 20;
};

/// Decides when a workload has enough samples.
class StoppingRule {
 public:
  virtual ~StoppingRule() = default;
  /// Why sampling should stop now, given the samples so far (kConverged or kMaxRounds), or
  /// kNone to go on.
  virtual StopReason Check(const WorkloadOutcome& outcome) const = 0;
  /// The statistic of the kept samples that is the workload's time.
  virtual Headline headline() const = 0;
  /// Most samples (kept or throttled) the workload may still take, for the ETA.
  virtual size_t SamplesLeft(const WorkloadOutcome& outcome) const = 0;
  /// Whether slow samples are set aside as throttled (best-of-N: they cannot be the best) or
  /// kept (a fixed count: the median and p10–p90 describe every sample).
  virtual bool SetsAsideThrottled() const = 0;
};

/// The rule `options` asks for.
std::unique_ptr<StoppingRule> MakeStoppingRule(const StoppingOptions& options);

/// The time `headline` picks from `stats` [ms].
double HeadlineMs(const Statistics& stats, Headline headline);

}  // namespace refract::measure
