// The work-linearity check: does a dispatch's time grow with its work knob?
//
// A kernel whose loop the compiler hoisted or folded takes the same time at any knob value and
// reports an impossible rate; this check catches it during calibration.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace refract::measure {

/// One dispatch at knob value `work` took `dispatch_ms` [ms].
struct WorkProbe {
  uint64_t work = 0;
  double dispatch_ms = 0;  // [ms]
  bool gpu_timed = false;  // timed by GPU timestamps: no submit overhead inside the time
  /// How far dispatch_ms may be off: for a minimum of several tries, the gap to the next
  /// fastest; 0 for a single try [ms].
  double noise_ms = 0;
};

/// Thresholds of the linearity check.
struct LinearityOptions {
  /// Both points of a pair must take at least this long to be judged (past launch overhead):
  /// wall-clock times include a submit's overhead [ms].
  double min_ms = 0.5;
  /// The same for times from GPU timestamps, which hold only the dispatch's own launch cost
  /// (a few µs on a discrete GPU; the fixed-cost correction takes out the rest) [ms].
  double min_gpu_ms = 0.05;
  /// Accepted band for the time ratio of a work doubling.
  double min_ratio = 1.5;
  double max_ratio = 2.5;
  /// Consecutive ramp probes are compared only when the work grew at least this much: tiny
  /// steps (near the ramp's end) would turn noise into a large per-doubling error.
  double min_ramp_step = 1.5;
  /// Tries at each linearity point; each point takes the minimum [count].
  uint32_t tries = 3;
  /// Times the points get `tries` more tries each when the verdict is too noisy [count].
  uint32_t noisy_retries = 2;
  /// Longest one linearity probe may be predicted to take (linear extrapolation from the
  /// smallest point); points past it are not measured, so a very slow row costs at most a few
  /// such probes [ms].
  double max_probe_ms = 250;
  /// Below this time growth for a work doubling, time counts as flat: no fixed-cost correction,
  /// so a hoisted loop is judged on its raw times.
  double flat_growth = 1.15;
};

enum class LinearityState {
  kUnchecked,  ///< no pair was long enough to judge (or the workload has no knob)
  kLinear,     ///< every judged pair was in the band
  kSuspect,    ///< some judged pair was outside the band
};

/// The check's result.
struct LinearityVerdict {
  LinearityState state = LinearityState::kUnchecked;
  /// Time ratio per work doubling: of the half/full pair when judged, else of the offending
  /// (suspect) or last judged (linear) ramp pair; empty when unchecked.
  std::optional<double> ratio;
  /// Why, in words: the suspect pair, or why nothing was judged; empty when linear.
  std::string reason;
  /// Unchecked because the dedicated pair's noise could move its ratio into the band: more
  /// tries may settle it.
  bool too_noisy = false;
};

/// Time ratio of `b` over `a` normalised to a work doubling: 2^(log(tb/ta) / log(wb/wa)).
/// Requires b.work > a.work > 0 and positive times.
double DoublingRatio(const WorkProbe& a, const WorkProbe& b);

/// Judges `ramp` (the work ramp's probes, in order) and the dedicated pair `half`/`full`
/// (one dispatch at ⌊work/2⌋ and at work), when measured. Every judged pair outside
/// [min_ratio, max_ratio] makes the verdict suspect (the dedicated pair is reported first),
/// except a dedicated pair whose probes' noise_ms (relative noises added in quadrature) could
/// move its ratio into the band: that one is unchecked and too_noisy, so noise alone does not
/// flag a sound kernel.
LinearityVerdict JudgeLinearity(std::span<const WorkProbe> ramp,
                                const std::optional<WorkProbe>& half,
                                const std::optional<WorkProbe>& full,
                                const LinearityOptions& options);

/// "linear", "suspect" or "unchecked".
std::string_view LinearityStateName(LinearityState state);

}  // namespace refract::measure
