// The activation models at points worked out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "reference/llm_activation.h"

namespace refract::reference {
namespace {

TEST(ReferenceLlmActivation, Silu) {
  // silu(1) = 1 / (1 + e^-1) = 0.7310586; silu(−1) = −1 / (1 + e) = −0.2689414.
  std::vector<float> y = Silu(std::vector<float>{0, 1, -1});
  EXPECT_EQ(y[0], 0.0f);
  EXPECT_NEAR(y[1], 0.7310586, 1e-7);
  EXPECT_NEAR(y[2], -0.2689414, 1e-7);
}

TEST(ReferenceLlmActivation, GeluTanhWithTheSeedConstants) {
  // gelu(1): inner = 0.7978845608 · (1 + 0.044715) = 0.8335633, tanh = 0.6823840,
  // 0.5 · 1.6823840 = 0.8411920. gelu(−2): inner = 0.7978845608 · (−2 − 0.35772) = −1.8812239,
  // tanh = −0.9545977, 0.5 · (−2) · 0.0454023 = −0.0454023.
  std::vector<float> y = Gelu(std::vector<float>{0, 1, -2});
  EXPECT_EQ(y[0], 0.0f);
  EXPECT_NEAR(y[1], 0.8411920, 1e-6);
  EXPECT_NEAR(y[2], -0.0454023, 1e-6);
}

TEST(ReferenceLlmActivation, SiluMulMultipliesByUp) {
  // silu(2) · 3 = 2 / (1 + e^-2) · 3 = 1.7615942 · 3 = 5.2847825.
  std::vector<float> y = SiluMul(std::vector<float>{2, 0}, std::vector<float>{3, 5});
  EXPECT_NEAR(y[0], 5.2847825, 1e-6);
  EXPECT_EQ(y[1], 0.0f);
}

}  // namespace
}  // namespace refract::reference
