#include "measure/linearity.h"

#include <cmath>

#include "base/lookup.h"
#include "measure/format.h"

namespace refract::measure {

namespace {

double MinMs(const WorkProbe& probe, const LinearityOptions& options) {
  return probe.gpu_timed ? options.min_gpu_ms : options.min_ms;
}

bool LongEnough(const WorkProbe& probe, const LinearityOptions& options) {
  return probe.dispatch_ms >= MinMs(probe, options);
}

bool InBand(double ratio, const LinearityOptions& options) {
  return ratio >= options.min_ratio && ratio <= options.max_ratio;
}

// "time ×1.02 for work ×2 (expected ≈2): the kernel's loop may be hoisted or folded".
std::string SuspectReason(const WorkProbe& a, const WorkProbe& b, double ratio,
                          const LinearityOptions& options) {
  const double time_ratio = b.dispatch_ms / a.dispatch_ms;
  const double work_ratio = static_cast<double>(b.work) / static_cast<double>(a.work);
  std::string what;
  if (std::abs(work_ratio - 2.0) < 1e-9) {
    what = StrFormat("time ×%.2f for work ×2 (expected ≈2)", time_ratio);
  } else {
    what = StrFormat("time ×%.2f for work ×%.2f (×%.2f per work doubling, expected ≈2)", time_ratio,
                     work_ratio, ratio);
  }
  const char* why = ratio < options.min_ratio
                        ? "the kernel's loop may be hoisted or folded"
                        : "time grows faster than work (spills, cache effects or a slow path)";
  return StrFormat("%s at work %llu→%llu: %s", what.c_str(),
                   static_cast<unsigned long long>(a.work), static_cast<unsigned long long>(b.work),
                   why);
}

// The doubling ratio of the pair a → b moved toward the band by the probes' noise: the time
// ratio scaled by 1 ± e, e = √((noise_a/t_a)² + (noise_b/t_b)²) (the relative noises of two
// independent times add in quadrature), up when `up`, else down.
double RatioMovedByNoise(const WorkProbe& a, const WorkProbe& b, bool up) {
  const double e = std::hypot(a.noise_ms / a.dispatch_ms, b.noise_ms / b.dispatch_ms);
  WorkProbe moved = b;
  moved.dispatch_ms *= up ? 1 + e : 1 / (1 + e);
  return DoublingRatio(a, moved);
}

}  // namespace

double DoublingRatio(const WorkProbe& a, const WorkProbe& b) {
  const double work_ratio = static_cast<double>(b.work) / static_cast<double>(a.work);
  const double exponent = std::log(b.dispatch_ms / a.dispatch_ms) / std::log(work_ratio);
  return std::pow(2.0, exponent);
}

LinearityVerdict JudgeLinearity(std::span<const WorkProbe> ramp,
                                const std::optional<WorkProbe>& half,
                                const std::optional<WorkProbe>& full,
                                const LinearityOptions& options) {
  LinearityVerdict verdict;
  std::optional<double> dedicated_ratio;
  std::optional<double> last_ramp_ratio;

  // The dedicated half/full pair.
  if (half && full && full->work > half->work && half->work > 0 && LongEnough(*half, options) &&
      LongEnough(*full, options)) {
    const double ratio = DoublingRatio(*half, *full);
    dedicated_ratio = ratio;
    if (!InBand(ratio, options)) {
      verdict.ratio = ratio;
      const bool below = ratio < options.min_ratio;
      const double moved = RatioMovedByNoise(*half, *full, below);
      if (below ? moved >= options.min_ratio : moved <= options.max_ratio) {
        verdict.reason = StrFormat(
            "linearity unchecked: time ×%.2f per work doubling at work %llu→%llu, but the "
            "tries' noise (±%.3f ms, ±%.3f ms) allows ×%.2f: too noisy to judge",
            ratio, static_cast<unsigned long long>(half->work),
            static_cast<unsigned long long>(full->work), half->noise_ms, full->noise_ms, moved);
        verdict.too_noisy = true;
        return verdict;
      }
      verdict.state = LinearityState::kSuspect;
      verdict.reason = SuspectReason(*half, *full, ratio, options);
      return verdict;
    }
  }

  // Consecutive ramp probes with a large enough work step.
  for (size_t i = 1; i < ramp.size(); ++i) {
    const WorkProbe& a = ramp[i - 1];
    const WorkProbe& b = ramp[i];
    if (a.work == 0 ||
        static_cast<double>(b.work) < options.min_ramp_step * static_cast<double>(a.work)) {
      continue;
    }
    if (!LongEnough(a, options) || !LongEnough(b, options)) continue;
    const double ratio = DoublingRatio(a, b);
    if (!InBand(ratio, options)) {
      verdict.state = LinearityState::kSuspect;
      verdict.ratio = ratio;
      verdict.reason = SuspectReason(a, b, ratio, options);
      return verdict;
    }
    last_ramp_ratio = ratio;
  }

  if (dedicated_ratio || last_ramp_ratio) {
    verdict.state = LinearityState::kLinear;
    verdict.ratio = dedicated_ratio ? dedicated_ratio : last_ramp_ratio;
    return verdict;
  }
  WorkProbe longest;
  for (const WorkProbe& probe : ramp) {
    if (probe.dispatch_ms > longest.dispatch_ms) longest = probe;
  }
  if (full && full->dispatch_ms > longest.dispatch_ms) longest = *full;
  verdict.reason =
      StrFormat("linearity unchecked: no pair of dispatches both took ≥ %.2f ms (longest %.3f ms)",
                MinMs(longest, options), longest.dispatch_ms);
  return verdict;
}

std::string_view LinearityStateName(LinearityState state) {
  static constexpr Entry<LinearityState, std::string_view> kNames[] = {
      {LinearityState::kLinear, "linear"},
      {LinearityState::kSuspect, "suspect"},
      {LinearityState::kUnchecked, "unchecked"}};
  return Lookup(kNames, state, {"unchecked"});
}

}  // namespace refract::measure
