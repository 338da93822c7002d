#include "results/mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace refract::results {
namespace {

/// Number of orderings of m samples of `a` among n samples of `b` with U_a = u, for u = 0..m·n:
/// the coefficients of the Gaussian binomial [m + n choose m](q), built as the product over
/// k = 1..m of (1 − q^(n+k)) / (1 − q^k). After step k the polynomial is [n + k choose k](q),
/// whose coefficients are at most C(60, 30) < 2^63 within kMannWhitneyExactLimit.
std::vector<int64_t> OrderingCounts(size_t m, size_t n) {
  std::vector<int64_t> counts(m * n + 1, 0);
  counts[0] = 1;
  for (size_t k = 1; k <= m; ++k) {
    const size_t grow = n + k;  // multiply by (1 − q^grow)
    for (size_t u = counts.size(); u-- > grow;) counts[u] -= counts[u - grow];
    for (size_t u = k; u < counts.size(); ++u) counts[u] += counts[u - k];  // divide by (1 − q^k)
  }
  return counts;
}

double ExactTwoSided(size_t m, size_t n, double u_min) {
  const std::vector<int64_t> counts = OrderingCounts(m, n);
  double total = 0, tail = 0;
  for (size_t u = 0; u < counts.size(); ++u) {
    const auto count = static_cast<double>(counts[u]);
    total += count;
    if (static_cast<double>(u) <= u_min + 1e-9) tail += count;
  }
  return std::min(1.0, 2 * tail / total);
}

}  // namespace

MannWhitneyResult MannWhitneyU(std::span<const double> a, std::span<const double> b) {
  MannWhitneyResult result;
  const size_t m = a.size(), n = b.size();
  if (m == 0 || n == 0) return result;

  // Pool, sort, and give tied runs their average (1-based) rank.
  std::vector<std::pair<double, bool>> pooled;  // value, from a
  for (double x : a) pooled.emplace_back(x, true);
  for (double y : b) pooled.emplace_back(y, false);
  std::sort(pooled.begin(), pooled.end(),
            [](const auto& l, const auto& r) { return l.first < r.first; });
  double rank_sum_a = 0, tie_term = 0;
  for (size_t start = 0; start < pooled.size();) {
    size_t end = start;
    while (end < pooled.size() && pooled[end].first == pooled[start].first) ++end;
    const double average_rank = static_cast<double>(start + 1 + end) / 2;
    for (size_t i = start; i < end; ++i) {
      if (pooled[i].second) rank_sum_a += average_rank;
    }
    const auto t = static_cast<double>(end - start);
    tie_term += t * t * t - t;
    start = end;
  }
  const auto dm = static_cast<double>(m), dn = static_cast<double>(n);
  result.u_a = rank_sum_a - dm * (dm + 1) / 2;
  result.u_b = dm * dn - result.u_a;
  const double u_min = std::min(result.u_a, result.u_b);

  if (tie_term == 0 && m + n <= kMannWhitneyExactLimit) {
    result.exact = true;
    result.p_value = ExactTwoSided(m, n, u_min);
    return result;
  }
  const double total = dm + dn;
  const double variance = dm * dn / 12 * ((total + 1) - tie_term / (total * (total - 1)));
  if (!(variance > 0)) return result;  // every sample tied: no evidence either way
  const double z = std::max(0.0, std::fabs(result.u_a - dm * dn / 2) - 0.5) / std::sqrt(variance);
  result.p_value = std::min(1.0, std::erfc(z / std::sqrt(2.0)));
  return result;
}

}  // namespace refract::results
