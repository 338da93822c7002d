#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "measure/statistics.h"

namespace refract::measure {
namespace {

TEST(MeasureStatisticsTest, OneToFiveMatchesHandComputedValues) {
  const std::vector<double> samples = {5, 1, 4, 2, 3};  // unsorted on purpose
  const Statistics stats = Summarize(samples);
  EXPECT_EQ(stats.count, 5u);
  EXPECT_DOUBLE_EQ(stats.min, 1);
  EXPECT_DOUBLE_EQ(stats.mean, 3);
  EXPECT_DOUBLE_EQ(stats.median, 3);
  EXPECT_DOUBLE_EQ(stats.stddev, std::sqrt(2.5));
  EXPECT_DOUBLE_EQ(stats.ci95, 2.776 * std::sqrt(2.5) / std::sqrt(5.0));
  // Type 7: h = 4 × 0.1 = 0.4 → 1 + 0.4 × (2 − 1); h = 4 × 0.9 = 3.6 → 4 + 0.6 × (5 − 4).
  EXPECT_DOUBLE_EQ(stats.p10, 1.4);
  EXPECT_DOUBLE_EQ(stats.p90, 4.6);
}

TEST(MeasureStatisticsTest, EvenCountInterpolatesMedianAndPercentiles) {
  const std::vector<double> samples = {4, 1, 3, 2};
  const Statistics stats = Summarize(samples);
  EXPECT_EQ(stats.count, 4u);
  EXPECT_DOUBLE_EQ(stats.mean, 2.5);
  EXPECT_DOUBLE_EQ(stats.median, 2.5);
  EXPECT_DOUBLE_EQ(stats.p10, 1.3);  // h = 0.3
  EXPECT_DOUBLE_EQ(stats.p90, 3.7);  // h = 2.7
  EXPECT_DOUBLE_EQ(stats.stddev, std::sqrt(5.0 / 3.0));
  EXPECT_DOUBLE_EQ(stats.ci95, 3.182 * std::sqrt(5.0 / 3.0) / 2.0);
}

TEST(MeasureStatisticsTest, EmptyGivesZeroCount) {
  const Statistics stats = Summarize({});
  EXPECT_EQ(stats.count, 0u);
  EXPECT_EQ(stats.min, 0);
  EXPECT_EQ(stats.mean, 0);
  EXPECT_EQ(stats.ci95, 0);
}

TEST(MeasureStatisticsTest, OneSampleHasNoSpread) {
  const std::vector<double> samples = {7.5};
  const Statistics stats = Summarize(samples);
  EXPECT_EQ(stats.count, 1u);
  EXPECT_DOUBLE_EQ(stats.min, 7.5);
  EXPECT_DOUBLE_EQ(stats.mean, 7.5);
  EXPECT_DOUBLE_EQ(stats.median, 7.5);
  EXPECT_DOUBLE_EQ(stats.p10, 7.5);
  EXPECT_DOUBLE_EQ(stats.p90, 7.5);
  EXPECT_EQ(stats.stddev, 0);
  EXPECT_EQ(stats.ci95, 0);
}

TEST(MeasureStatisticsTest, StudentTTableAndLargeSampleLimit) {
  EXPECT_DOUBLE_EQ(StudentT975(1), 12.706);
  EXPECT_DOUBLE_EQ(StudentT975(4), 2.776);
  EXPECT_DOUBLE_EQ(StudentT975(9), 2.262);
  EXPECT_DOUBLE_EQ(StudentT975(30), 2.042);
  EXPECT_DOUBLE_EQ(StudentT975(35), 2.042);  // next lower row: wider, never narrower
  EXPECT_DOUBLE_EQ(StudentT975(50), 2.021);
  EXPECT_DOUBLE_EQ(StudentT975(1000), 1.96);
}

TEST(MeasureStatisticsTest, PercentileEndsAreMinAndMax) {
  const std::vector<double> sorted = {2, 4, 8};
  EXPECT_DOUBLE_EQ(Percentile(sorted, 0), 2);
  EXPECT_DOUBLE_EQ(Percentile(sorted, 1), 8);
  EXPECT_DOUBLE_EQ(Percentile(sorted, 0.75), 6);  // h = 1.5
}

}  // namespace
}  // namespace refract::measure
