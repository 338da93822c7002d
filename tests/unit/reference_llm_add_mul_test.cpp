// The element-wise add and mul CPU models on values worked out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "base/error.h"
#include "reference/llm_add_mul.h"

namespace refract::reference {
namespace {

TEST(ReferenceLlmAddMul, AddAndMulElementByElement) {
  const std::vector<float> a = {1.5f, -2, 0.25f};
  const std::vector<float> b = {2, 3, -4};
  // 1.5 + 2 = 3.5, −2 + 3 = 1, 0.25 − 4 = −3.75; 1.5 · 2 = 3, −2 · 3 = −6, 0.25 · −4 = −1.
  EXPECT_EQ(Add(a, b), (std::vector<float>{3.5f, 1, -3.75f}));
  EXPECT_EQ(Mul(a, b), (std::vector<float>{3, -6, -1}));
  EXPECT_TRUE(kAddMulTolerance.IsExact());
}

TEST(ReferenceLlmAddMul, RefusesInputsOfDifferentSizes) {
  const std::vector<float> a = {1, 2};
  const std::vector<float> b = {1};
  EXPECT_THROW(Add(a, b), Error);
}

}  // namespace
}  // namespace refract::reference
