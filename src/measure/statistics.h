// Summary statistics of a row's kept per-dispatch times.
#pragma once

#include <cstddef>
#include <span>

namespace refract::measure {

/// Summary of a sample set, in the samples' unit ([ms] for times).
struct Statistics {
  size_t count = 0;
  double min = 0;
  double mean = 0;
  double median = 0;
  double stddev = 0;  ///< sample standard deviation (divides by n − 1); 0 for one sample
  double ci95 = 0;    ///< half-width of the 95 % confidence interval of the mean (Student t)
  double p10 = 0;     ///< 10th percentile, see Percentile()
  double p90 = 0;     ///< 90th percentile, see Percentile()
};

/// Summarizes `samples` (any order). Empty: all fields 0. One sample: stddev and ci95 are 0.
Statistics Summarize(std::span<const double> samples);

/// Percentile `p` in [0, 1] of ascending `sorted` values, by linear interpolation between the
/// closest ranks: with h = (n − 1)·p, the value is x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋])
/// (Hyndman–Fan type 7, as numpy and spreadsheets' PERCENTILE.INC). p = 0.5 is the median.
/// Empty input gives 0.
double Percentile(std::span<const double> sorted, double p);

/// Two-sided 95 % Student t quantile (t_0.975) for `degrees_of_freedom` ≥ 1: tabulated for
/// 1–30, 40, 60 and 120 (between rows the next lower row's, i.e. wider, value), 1.96 beyond 120.
double StudentT975(size_t degrees_of_freedom);

}  // namespace refract::measure
