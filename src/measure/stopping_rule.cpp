#include "measure/stopping_rule.h"

#include <algorithm>
#include <vector>

namespace refract::measure {
namespace {

/// Samples left before `kept` reaches `budget` or kept + throttled reaches 2 × budget.
size_t LeftWithin(const WorkloadOutcome& outcome, size_t budget) {
  const size_t kept = outcome.times_ms.size();
  const size_t total = kept + outcome.throttled_ms.size();
  const size_t by_kept = budget > kept ? budget - kept : 0;
  const size_t by_total = 2 * budget > total ? 2 * budget - total : 0;
  return std::min(by_kept, by_total);
}

/// webgpu-bench's rule (docs/CEILINGS.md "Measurement rules").
class Convergence final : public StoppingRule {
 public:
  explicit Convergence(const StoppingOptions& options) : options_(options) {}

  StopReason Check(const WorkloadOutcome& outcome) const override {
    const std::vector<double>& kept = outcome.times_ms;
    const size_t n = kept.size();
    if (n >= options_.min_rounds && n > options_.stable_rounds) {
      const double best = *std::min_element(kept.begin(), kept.end());
      const double best_before =
          *std::min_element(kept.begin(), kept.end() - options_.stable_rounds);
      if (best >= (1 - options_.tolerance) * best_before) return StopReason::kConverged;
    }
    if (LeftWithin(outcome, options_.max_rounds) == 0) return StopReason::kMaxRounds;
    return StopReason::kNone;
  }
  Headline headline() const override { return Headline::kMin; }
  size_t SamplesLeft(const WorkloadOutcome& outcome) const override {
    return LeftWithin(outcome, options_.max_rounds);
  }
  bool SetsAsideThrottled() const override { return true; }

 private:
  StoppingOptions options_;
};

/// A fixed number of samples, every one kept: what a sweep needs to compare configurations by
/// their median and spread.
class FixedCount final : public StoppingRule {
 public:
  explicit FixedCount(uint32_t samples) : samples_(std::max(samples, 1u)) {}

  StopReason Check(const WorkloadOutcome& outcome) const override {
    return LeftWithin(outcome, samples_) == 0 ? StopReason::kSampleCount : StopReason::kNone;
  }
  Headline headline() const override { return Headline::kMedian; }
  size_t SamplesLeft(const WorkloadOutcome& outcome) const override {
    return LeftWithin(outcome, samples_);
  }
  bool SetsAsideThrottled() const override { return false; }

 private:
  uint32_t samples_;
};

}  // namespace

std::unique_ptr<StoppingRule> MakeStoppingRule(const StoppingOptions& options) {
  if (options.kind == StoppingKind::kFixedCount)
    return std::make_unique<FixedCount>(options.samples);
  return std::make_unique<Convergence>(options);
}

double HeadlineMs(const Statistics& stats, Headline headline) {
  return headline == Headline::kMedian ? stats.median : stats.min;
}

}  // namespace refract::measure
