#include "measure/statistics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <vector>

namespace refract::measure {

namespace {

// t_0.975 for 1..30 degrees of freedom.
// clang-format off
constexpr std::array<double, 30> kT975 = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
// clang-format on

}  // namespace

double StudentT975(size_t degrees_of_freedom) {
  if (degrees_of_freedom == 0) return 0;
  if (degrees_of_freedom <= kT975.size()) return kT975[degrees_of_freedom - 1];
  if (degrees_of_freedom < 40) return kT975.back();
  if (degrees_of_freedom < 60) return 2.021;
  if (degrees_of_freedom < 120) return 2.000;
  if (degrees_of_freedom == 120) return 1.980;
  return 1.96;
}

double Percentile(std::span<const double> sorted, double p) {
  if (sorted.empty()) return 0;
  const double h = static_cast<double>(sorted.size() - 1) * std::clamp(p, 0.0, 1.0);
  const auto lower = static_cast<size_t>(std::floor(h));
  if (lower + 1 >= sorted.size()) return sorted.back();
  return sorted[lower] + (h - static_cast<double>(lower)) * (sorted[lower + 1] - sorted[lower]);
}

Statistics Summarize(std::span<const double> samples) {
  Statistics stats;
  if (samples.empty()) return stats;
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());

  const size_t n = sorted.size();
  stats.count = n;
  stats.min = sorted.front();
  stats.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(n);
  stats.median = Percentile(sorted, 0.5);
  stats.p10 = Percentile(sorted, 0.1);
  stats.p90 = Percentile(sorted, 0.9);
  if (n > 1) {
    double squares = 0;
    for (double x : sorted) squares += (x - stats.mean) * (x - stats.mean);
    stats.stddev = std::sqrt(squares / static_cast<double>(n - 1));
    stats.ci95 = StudentT975(n - 1) * stats.stddev / std::sqrt(static_cast<double>(n));
  }
  return stats;
}

}  // namespace refract::measure
