// The q8 activations' CPU model on hand-computed blocks (all zeros, one large value, values
// exactly halfway between two codes, a partial last block), the packing's pairing with
// MatMulNBits nibbles, the check's near-tie allowance, and the GEMV's arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "base/error.h"
#include "reference/llm_q4.h"
#include "reference/llm_q8.h"

namespace refract::reference {
namespace {

TEST(ReferenceLlmQ8, AllZeroBlockHasZeroScaleAndCodes) {
  const Q8Activations q = QuantizeQ8(std::vector<float>(32, 0.0f));
  ASSERT_EQ(q.scales.size(), 1u);
  EXPECT_EQ(q.scales[0], 0.0f);
  EXPECT_EQ(q.sums[0], 0.0f);
  for (int8_t code : q.codes) EXPECT_EQ(code, 0);
}

TEST(ReferenceLlmQ8, TheLargestValueTakesCode127) {
  std::vector<float> x(32, 0.0f);
  x[5] = -6.35f;  // amax 6.35: d = 0.05
  x[9] = 0.1f;    // 2 codes
  const Q8Activations q = QuantizeQ8(x);
  EXPECT_FLOAT_EQ(q.scales[0], 6.35f / 127.0f);
  EXPECT_EQ(q.codes[5], -127);
  EXPECT_EQ(q.codes[9], 2);
  EXPECT_EQ(q.sums[0], -125.0f);
}

TEST(ReferenceLlmQ8, HalfwayValuesRoundToEven) {
  // amax = 127 makes d = 1 exactly: x / d is x.
  std::vector<float> x(32, 0.0f);
  x[0] = 127.0f;
  x[1] = 2.5f;    // between 2 and 3: 2
  x[2] = 3.5f;    // between 3 and 4: 4
  x[3] = -2.5f;   // -2
  x[4] = -0.5f;   // 0 (and -0)
  x[5] = 126.5f;  // 126
  const Q8Activations q = QuantizeQ8(x);
  EXPECT_EQ(q.scales[0], 1.0f);
  EXPECT_EQ(q.codes[1], 2);
  EXPECT_EQ(q.codes[2], 4);
  EXPECT_EQ(q.codes[3], -2);
  EXPECT_EQ(q.codes[4], 0);
  EXPECT_EQ(q.codes[5], 126);
  EXPECT_EQ(q.sums[0], 127 + 2 + 4 - 2 + 0 + 126);
}

TEST(ReferenceLlmQ8, APartialLastBlockIsPaddedWithZeroCodes) {
  std::vector<float> x(40, 1.0f);  // 1.25 blocks
  const Q8Activations q = QuantizeQ8(x);
  ASSERT_EQ(q.codes.size(), 64u);
  EXPECT_EQ(q.codes[39], 127);
  EXPECT_EQ(q.codes[40], 0);
  EXPECT_EQ(q.sums[1], 8.0f * 127);
}

TEST(ReferenceLlmQ8, PackingPairsEvenCodesWithLowNibblesAndOddWithHigh) {
  std::vector<int8_t> codes(32);
  for (int i = 0; i < 32; ++i) codes[i] = static_cast<int8_t>(i - 16);
  const std::vector<uint32_t> words = PackQ8Codes(codes);
  ASSERT_EQ(words.size(), 8u);
  // Word 0 (A0): codes 0, 2, 4, 6; word 1 (B0): 1, 3, 5, 7; word 2 (A1): 8, 10, 12, 14.
  EXPECT_EQ(static_cast<int8_t>(words[0] & 0xFF), -16);
  EXPECT_EQ(static_cast<int8_t>((words[0] >> 8) & 0xFF), -14);
  EXPECT_EQ(static_cast<int8_t>((words[1] >> 24) & 0xFF), -9);
  EXPECT_EQ(static_cast<int8_t>(words[2] & 0xFF), -8);
  EXPECT_EQ(UnpackQ8Codes(words), codes);
  EXPECT_THROW(PackQ8Codes(std::vector<int8_t>(31)), Error);
}

TEST(ReferenceLlmQ8, CheckAllowsOneCodeOnlyAtNearTies) {
  std::vector<float> x(32, 0.0f);
  x[0] = 127.0f;
  x[1] = 2.5f;   // a tie: a GPU may give 3
  x[2] = 2.25f;  // far from a tie: must be 2
  const Q8Activations model = QuantizeQ8(x);
  std::vector<float> scale_sums = {model.scales[0], model.sums[0]};
  std::vector<int8_t> codes = model.codes;
  EXPECT_EQ(CheckQ8Activations("q8", PackQ8Codes(codes), scale_sums, x).elements, 34u);

  codes[1] = 3;  // the other side of the tie, with its own sum
  scale_sums[1] += 1;
  EXPECT_NO_THROW(CheckQ8Activations("q8", PackQ8Codes(codes), scale_sums, x));
  codes[2] = 3;  // off by one away from any tie
  scale_sums[1] += 1;
  EXPECT_THROW(CheckQ8Activations("q8", PackQ8Codes(codes), scale_sums, x), VerificationError);
  codes[2] = 2;
  scale_sums[1] -= 2;  // a sum that is not the codes' own
  EXPECT_THROW(CheckQ8Activations("q8", PackQ8Codes(codes), scale_sums, x), VerificationError);
  scale_sums = {model.scales[0] * 1.001f, model.sums[0]};  // a scale off by far more than ulps
  EXPECT_THROW(CheckQ8Activations("q8", PackQ8Codes(model.codes), scale_sums, x),
               VerificationError);
}

TEST(ReferenceLlmQ8, GemvFoldsTheZeroPointInThroughTheSum) {
  // One row, one block: codes c, weights' scale s; y = s · d · (Σ c q − 8 Σ q).
  Q4Matrix w{.k = 32, .n = 1, .codes = std::vector<uint8_t>(32, 8), .scales = {0.5f}};
  w.codes[0] = 9;   // weight +1 · 0.5
  w.codes[1] = 15;  // weight +7 · 0.5
  std::vector<float> x(32, 0.0f);
  x[0] = 127.0f;  // d = 1, q0 = 127
  x[1] = -3.0f;   // q1 = -3
  x[2] = 5.0f;    // q2 = 5, its weight 0
  const Q8Activations q = QuantizeQ8(x);
  const std::vector<double> y = GemvQ8(w, q);
  ASSERT_EQ(y.size(), 1u);
  EXPECT_DOUBLE_EQ(y[0], 0.5 * (1 * 127 + 7 * -3));  // = Σ (code − 8) · q · s
}

TEST(ReferenceLlmQ8, ARoundTripIsEachCodeTimesItsBlocksScale) {
  std::vector<float> x(40);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.37f * static_cast<float>(i) - 5.0f;
  const Q8Activations q = QuantizeQ8(x);
  const std::vector<float> back = Q8RoundTrip(x);
  ASSERT_EQ(back.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(back[i], static_cast<float>(q.codes[i]) * q.scales[i / 32]) << i;
    EXPECT_LE(std::abs(back[i] - x[i]), q.scales[i / 32] / 2 * 1.0001) << i;  // half a step
  }
}

}  // namespace
}  // namespace refract::reference
