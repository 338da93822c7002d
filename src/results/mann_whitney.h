// The Mann–Whitney U test (Wilcoxon rank-sum): do two sets of samples come from one distribution,
// or does one tend to be larger? Used by run comparison to confirm a change in time.
#pragma once

#include <span>

namespace refract::results {

/// The outcome of one two-sided test of `a` against `b`.
struct MannWhitneyResult {
  double u_a = 0;      ///< U of `a`: pairs (x in a, y in b) with x > y, plus half the ties
  double u_b = 0;      ///< U of `b`; u_a + u_b = |a|·|b|
  double p_value = 1;  ///< two-sided p-value
  bool exact = false;  ///< true: from the exact distribution of U; false: normal approximation
};

/// Largest |a| + |b| for which the exact distribution is used (its counts fit in 64 bits).
inline constexpr size_t kMannWhitneyExactLimit = 60;

/// Two-sided Mann–Whitney U test. Ranks the pooled samples (ties get their average rank).
/// Without ties and with |a| + |b| ≤ kMannWhitneyExactLimit the p-value is exact: twice the
/// probability that U is at most min(u_a, u_b) when all orderings are equally likely (capped at
/// 1). Otherwise it uses the normal approximation with the tie correction of the variance,
/// σ² = |a||b|/12 · ((N + 1) − Σ(t³ − t) / (N(N − 1))), and a continuity correction of 0.5.
/// An empty side, or every sample tied, gives p = 1.
MannWhitneyResult MannWhitneyU(std::span<const double> a, std::span<const double> b);

}  // namespace refract::results
