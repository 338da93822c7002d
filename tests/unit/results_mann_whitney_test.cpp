// The Mann–Whitney U test against cases computed by hand (counts of orderings, or the normal
// approximation's formula evaluated with a calculator).
#include <gtest/gtest.h>

#include <vector>

#include "results/mann_whitney.h"

namespace refract::results {
namespace {

TEST(MannWhitney, SeparatedThreeAgainstThreeIsExactOneTenth) {
  // U = 0; 1 of the C(6,3) = 20 orderings is as extreme on each side: p = 2/20.
  const std::vector<double> a = {1, 2, 3}, b = {4, 5, 6};
  const MannWhitneyResult result = MannWhitneyU(a, b);
  EXPECT_TRUE(result.exact);
  EXPECT_DOUBLE_EQ(result.u_a, 0);
  EXPECT_DOUBLE_EQ(result.u_b, 9);
  EXPECT_DOUBLE_EQ(result.p_value, 0.1);
}

TEST(MannWhitney, SeparatedFiveAgainstFiveIsSignificant) {
  // p = 2/C(10,5) = 2/252.
  const std::vector<double> a = {6, 7, 8, 9, 10}, b = {1, 2, 3, 4, 5};
  const MannWhitneyResult result = MannWhitneyU(a, b);
  EXPECT_DOUBLE_EQ(result.u_a, 25);
  EXPECT_NEAR(result.p_value, 2.0 / 252, 1e-15);
}

TEST(MannWhitney, InterleavedSamplesGiveTheCountedTail) {
  // a = {1,3,5}, b = {2,4,6}: U_a = 3 (3>2, 5>2, 5>4). Orderings by U for 3+3 samples:
  // 1,1,2,3,3,3,3,2,1,1 (sum 20); P(U <= 3) = 7/20, two-sided 0.7.
  const std::vector<double> a = {1, 3, 5}, b = {2, 4, 6};
  const MannWhitneyResult result = MannWhitneyU(a, b);
  EXPECT_DOUBLE_EQ(result.u_a, 3);
  EXPECT_NEAR(result.p_value, 0.7, 1e-15);
}

TEST(MannWhitney, UnequalSizes) {
  // a = {1,4}, b = {2,3,5}: U_a = 2, U_b = 4. Orderings by U for 2+3 samples: 1,1,2,2,2,1,1
  // (sum 10); P(U <= 2) = 4/10, two-sided 0.8.
  const std::vector<double> a = {1, 4}, b = {2, 3, 5};
  const MannWhitneyResult result = MannWhitneyU(a, b);
  EXPECT_DOUBLE_EQ(result.u_a, 2);
  EXPECT_NEAR(result.p_value, 0.8, 1e-15);
}

TEST(MannWhitney, TiesUseTheNormalApproximationWithTieCorrection) {
  // Ranks of the pooled 1,2,2,2,3,3,4,5: 1, 3,3,3, 5.5,5.5, 7, 8. a's rank sum 12.5, U_a = 2.5.
  // Ties t = 3 and 2: Σ(t³ − t) = 30; σ² = 16/12 · (9 − 30/56) = 11.2857;
  // z = (|2.5 − 8| − 0.5)/3.35942 = 1.48835; p = erfc(z/√2) = 0.136658.
  const std::vector<double> a = {1, 2, 2, 3}, b = {2, 3, 4, 5};
  const MannWhitneyResult result = MannWhitneyU(a, b);
  EXPECT_FALSE(result.exact);
  EXPECT_DOUBLE_EQ(result.u_a, 2.5);
  EXPECT_NEAR(result.p_value, 0.1366582477, 1e-9);
}

TEST(MannWhitney, LargeSamplesUseTheNormalApproximation) {
  // 40 against 40, separated: σ² = 1600 · 81 / 12 = 10800, z = 799.5/103.923 = 7.69319,
  // p = 1.435e-14.
  std::vector<double> a, b;
  for (int i = 1; i <= 40; ++i) {
    a.push_back(i);
    b.push_back(40 + i);
  }
  const MannWhitneyResult result = MannWhitneyU(a, b);
  EXPECT_FALSE(result.exact);
  EXPECT_DOUBLE_EQ(result.u_a, 0);
  EXPECT_NEAR(result.p_value / 1.435085306e-14, 1, 1e-6);
}

TEST(MannWhitney, ExactAtTheLimitAgreesWithTheApproximationRoughly) {
  // 30 against 30 interleaved by one step: still exact (60 samples), and near the normal value.
  std::vector<double> a, b;
  for (int i = 0; i < 30; ++i) {
    a.push_back(2 * i + 1.5);
    b.push_back(2 * i);
  }
  const MannWhitneyResult result = MannWhitneyU(a, b);
  EXPECT_TRUE(result.exact);
  EXPECT_GT(result.p_value, 0.5);
  EXPECT_LE(result.p_value, 1.0);
}

TEST(MannWhitney, EmptyOrAllTiedGivesOne) {
  const std::vector<double> none, some = {1, 2}, tied = {3, 3, 3};
  EXPECT_EQ(MannWhitneyU(none, some).p_value, 1);
  EXPECT_EQ(MannWhitneyU(tied, tied).p_value, 1);
}

}  // namespace
}  // namespace refract::results
