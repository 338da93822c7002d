// The RoPE model on pairs worked out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "reference/llm_rope.h"

namespace refract::reference {
namespace {

TEST(ReferenceLlmRope, RotatesAdjacentPairsByPositionTimesFrequency) {
  // d = 4, base 100: pair 0 turns by θ = pos, pair 1 by pos · 100^(−2/4) = pos / 10.
  // Row 0 sits at pos = 0 + offset 10: pair 0 (1, 0) turns by 10 rad → (cos 10, sin 10) =
  // (−0.8390715, −0.5440211); pair 1 (0, 1) turns by 1 rad → (−sin 1, cos 1) =
  // (−0.8414710, 0.5403023).
  RopeShape shape{
      .seq_len = 1, .heads = 1, .kv_heads = 1, .head_dim = 4, .position_offset = 10, .base = 100};
  std::vector<float> q = {1, 0, 0, 1}, k = {0, 2, 0, 0};
  Rope(shape, q, k);
  EXPECT_NEAR(q[0], -0.8390715, 1e-6);
  EXPECT_NEAR(q[1], -0.5440211, 1e-6);
  EXPECT_NEAR(q[2], -0.8414710, 1e-6);
  EXPECT_NEAR(q[3], 0.5403023, 1e-6);
  // k pair 0 = (0, 2) turns by 10 rad: (−2 sin 10, 2 cos 10) = (1.0880422, −1.6781430).
  EXPECT_NEAR(k[0], 1.0880422, 1e-6);
  EXPECT_NEAR(k[1], -1.6781430, 1e-6);
}

TEST(ReferenceLlmRope, PositionZeroIsTheIdentityAndKHasItsOwnHeadCount) {
  // Two rows (pos 0 and 1), two q heads, one k head, d = 2. Row 0 is unchanged; row 1 turns by
  // 1 rad: q head (1, 0) → (cos 1, sin 1) = (0.5403023, 0.8414710).
  RopeShape shape{.seq_len = 2, .heads = 2, .kv_heads = 1, .head_dim = 2, .base = 1e6};
  std::vector<float> q = {3, 4, 5, 6, 1, 0, 1, 0}, k = {7, 8, 1, 0};
  Rope(shape, q, k);
  EXPECT_EQ((std::vector<float>{q[0], q[1], q[2], q[3]}), (std::vector<float>{3, 4, 5, 6}));
  EXPECT_EQ((std::vector<float>{k[0], k[1]}), (std::vector<float>{7, 8}));
  EXPECT_NEAR(q[6], 0.5403023, 1e-6);
  EXPECT_NEAR(q[7], 0.8414710, 1e-6);
  EXPECT_NEAR(k[2], 0.5403023, 1e-6);
  EXPECT_NEAR(k[3], 0.8414710, 1e-6);
}

TEST(ReferenceLlmRope, ToleranceGrowsWithTheLargestAngle) {
  RopeShape shape{.seq_len = 2048};
  std::vector<float> out = {2.0f};
  EXPECT_DOUBLE_EQ(RopeTolerance(shape, out).absolute,
                   2.0 * (kRopeBaseTolerance + kRopePerRadianTolerance * 2047));
}

}  // namespace
}  // namespace refract::reference
