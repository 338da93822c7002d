// The softmax model on rows worked out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "reference/llm_softmax.h"

namespace refract::reference {
namespace {

TEST(ReferenceLlmSoftmax, NormalisesEachRow) {
  // Row 0 = (1, 2, 3): e^-2, e^-1, 1 over their sum 1.5032147 = 0.0900306, 0.2447285,
  // 0.6652410. Row 1 = (7, 7, 7): a third each.
  std::vector<float> x = {1, 2, 3, 7, 7, 7};
  std::vector<float> y = Softmax(x, 2, 3);
  ASSERT_EQ(y.size(), 6u);
  EXPECT_NEAR(y[0], 0.0900306, 1e-7);
  EXPECT_NEAR(y[1], 0.2447285, 1e-7);
  EXPECT_NEAR(y[2], 0.6652410, 1e-7);
  for (int i = 3; i < 6; ++i) EXPECT_NEAR(y[i], 1.0 / 3, 1e-7);
}

TEST(ReferenceLlmSoftmax, LargeLogitsDoNotOverflow) {
  // exp(1000) overflows even a double; after the max subtraction the row is (1, 1, e^-1000).
  std::vector<float> y = Softmax(std::vector<float>{1000, 1000, 0}, 1, 3);
  EXPECT_EQ(y[0], 0.5f);
  EXPECT_EQ(y[1], 0.5f);
  EXPECT_EQ(y[2], 0.0f);
}

TEST(ReferenceLlmSoftmax, ASingleElementRowIsOne) {
  EXPECT_EQ(Softmax(std::vector<float>{-42}, 1, 1), (std::vector<float>{1}));
}

TEST(ReferenceLlmSoftmax, ToleranceIsRelativeWithAFlushFloor) {
  Tolerance tolerance = SoftmaxTolerance(std::vector<float>{0.25f, 0.75f});
  EXPECT_DOUBLE_EQ(tolerance.absolute, 0.75 * kSoftmaxFlushTolerance);
  EXPECT_DOUBLE_EQ(tolerance.relative, kSoftmaxRelTolerance);
}

}  // namespace
}  // namespace refract::reference
