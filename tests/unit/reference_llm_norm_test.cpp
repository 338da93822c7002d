// The normalisation models on rows worked out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "reference/llm_norm.h"

namespace refract::reference {
namespace {

TEST(ReferenceLlmNorm, RmsNormDividesByTheRootMeanSquare) {
  // x = (3, 4): mean square (9 + 16) / 2 = 12.5, rms 3.5355339; weight (1, 2):
  // y = (3 / 3.5355339, 2 · 4 / 3.5355339) = (0.8485281, 2.2627417). Row 1 = (0, 2):
  // mean square 2, y = (0, 2 · 2 / √2) = (0, 2.8284271).
  std::vector<float> y = RmsNorm({.rows = 2, .hidden = 2, .eps = 0}, std::vector<float>{3, 4, 0, 2},
                                 std::vector<float>{1, 2});
  ASSERT_EQ(y.size(), 4u);
  EXPECT_NEAR(y[0], 0.8485281, 1e-6);
  EXPECT_NEAR(y[1], 2.2627417, 1e-6);
  EXPECT_EQ(y[2], 0.0f);
  EXPECT_NEAR(y[3], 2.8284271, 1e-6);
}

TEST(ReferenceLlmNorm, RmsNormAddsEpsToTheMeanSquare) {
  // x = (1, 1), eps = 3: 1 / √(1 + 3) = 0.5.
  std::vector<float> y = RmsNorm({.rows = 1, .hidden = 2, .eps = 3}, std::vector<float>{1, 1},
                                 std::vector<float>{1, 1});
  EXPECT_NEAR(y[0], 0.5, 1e-7);
}

TEST(ReferenceLlmNorm, LayerNormCentresScalesAndShifts) {
  // x = (1, 3): mean 2, population variance 1; weight (1, 2), bias (0, 10): y = (−1, 12).
  std::vector<float> y = LayerNorm({.rows = 1, .hidden = 2, .eps = 0}, std::vector<float>{1, 3},
                                   std::vector<float>{1, 2}, std::vector<float>{0, 10});
  EXPECT_NEAR(y[0], -1.0, 1e-7);
  EXPECT_NEAR(y[1], 12.0, 1e-6);
}

TEST(ReferenceLlmNorm, AddRmsNormReturnsTheSumAndItsNorm) {
  // h = (1, 2) + (2, 2) = (3, 4), normalised as in the first test.
  AddRmsNormResult r = AddRmsNorm({.rows = 1, .hidden = 2, .eps = 0}, std::vector<float>{1, 2},
                                  std::vector<float>{2, 2}, std::vector<float>{1, 2});
  EXPECT_EQ(r.h, (std::vector<float>{3, 4}));
  EXPECT_NEAR(r.y[0], 0.8485281, 1e-6);
  EXPECT_NEAR(r.y[1], 2.2627417, 1e-6);
}

}  // namespace
}  // namespace refract::reference
