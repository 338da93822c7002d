// The 4-bit matrices of the q4 matmul rows: both packers on a matrix packed by hand, and round
// trips of random matrices through both layouts (including K not a multiple of 32).
#include <gtest/gtest.h>

#include <vector>

#include "base/error.h"
#include "reference/llm_q4.h"

namespace refract::reference {
namespace {

// K = 2, N = 3. codes [K, N] = [[1, 2, 3], [15, 0, 8]], scales [N, 1] = [0.5, 0.25, 2]:
// B = [[(1−8)·0.5, (2−8)·0.25, (3−8)·2], [(15−8)·0.5, (0−8)·0.25, (8−8)·2]]
//   = [[−3.5, −1.5, −10], [3.5, −2, 0]].
Q4Matrix HandMatrix() {
  return Q4Matrix{.k = 2, .n = 3, .codes = {1, 2, 3, 15, 0, 8}, .scales = {0.5f, 0.25f, 2.0f}};
}

TEST(ReferenceLlmQ4, LogicalValues) {
  const Q4Matrix m = HandMatrix();
  EXPECT_EQ(m.Value(0, 0), -3.5f);
  EXPECT_EQ(m.Value(0, 2), -10.0f);
  EXPECT_EQ(m.Value(1, 1), -2.0f);
  EXPECT_EQ(Q4Blocks(32), 1u);
  EXPECT_EQ(Q4Blocks(33), 2u);
}

TEST(ReferenceLlmQ4, SeedLayoutByHand) {
  // group_size 1: one group an element. Flat order k·3 + n gives codes 1, 2, 3, 15, 0, 8 in
  // nibbles 0..5 of word 0: 0x1 | 0x20 | 0x300 | 0xF000 | 0x0_0000 | 0x80_0000 = 0x0080F321.
  const SeedInt4Packing p = PackSeedInt4(HandMatrix(), 1);
  EXPECT_EQ(p.packed, (std::vector<uint32_t>{0x0080F321u}));
  EXPECT_EQ(p.scales, (std::vector<float>{0.5f, 0.25f, 2, 0.5f, 0.25f, 2}));
  EXPECT_EQ(p.zeros, (std::vector<float>(6, 8.0f)));
  EXPECT_EQ(SeedInt4Code(p, 3, 1, 0), 15u);
  // Transposed to W [N, K]: [[−3.5, 3.5], [−1.5, −2], [−10, 0]].
  EXPECT_EQ(DequantizeSeedInt4(p, 2, 3, 1), (std::vector<float>{-3.5f, 3.5f, -1.5f, -2, -10, 0}));
}

TEST(ReferenceLlmQ4, SeedLayoutRefusesAGroupOfTwoScales) {
  // group_size 32 puts all six elements, of three scales, in group 0.
  EXPECT_THROW(PackSeedInt4(HandMatrix(), 32), Error);
}

TEST(ReferenceLlmQ4, MatMulNBitsLayoutByHand) {
  // Row n holds one 16-byte block; k = 0 in the low nibble of byte 0, k = 1 in its high nibble:
  // row 0: 0xF1, row 1: 0x02, row 2: 0x83; the other 15 bytes of each block are 0.
  const MatMulNBitsPacking p = PackMatMulNBits(HandMatrix());
  std::vector<uint8_t> expected(48, 0);
  expected[0] = 0xF1;
  expected[16] = 0x02;
  expected[32] = 0x83;
  EXPECT_EQ(p.b, expected);
  EXPECT_EQ(p.scales, (std::vector<float>{0.5f, 0.25f, 2.0f}));
  EXPECT_EQ(MatMulNBitsCode(p, 2, 1, 2), 8u);
  EXPECT_EQ(DequantizeMatMulNBits(p, 2, 3), (std::vector<float>{-3.5f, 3.5f, -1.5f, -2, -10, 0}));
}

// Both layouts hold exactly the random logical matrix: same codes, same dequantized values.
void ExpectRoundTrip(uint32_t k, uint32_t n) {
  SCOPED_TRACE("K=" + std::to_string(k) + " N=" + std::to_string(n));
  const Q4Matrix m = RandomQ4Matrix(k, n, 42);
  const SeedInt4Packing seed = PackSeedInt4(m);
  const MatMulNBitsPacking nbits = PackMatMulNBits(m);
  EXPECT_EQ(nbits.b.size(), size_t{n} * Q4Blocks(k) * 16);
  const std::vector<float> w_seed = DequantizeSeedInt4(seed, k, n);
  const std::vector<float> w_nbits = DequantizeMatMulNBits(nbits, k, n);
  for (uint32_t row = 0; row < k; ++row) {
    for (uint32_t col = 0; col < n; ++col) {
      const uint32_t code = m.codes[size_t{row} * n + col];
      ASSERT_EQ(SeedInt4Code(seed, n, row, col), code);
      ASSERT_EQ(MatMulNBitsCode(nbits, k, row, col), code);
      ASSERT_EQ(w_seed[size_t{col} * k + row], m.Value(row, col));
      ASSERT_EQ(w_nbits[size_t{col} * k + row], m.Value(row, col));
    }
  }
}

TEST(ReferenceLlmQ4, RandomMatricesRoundTripThroughBothLayouts) {
  ExpectRoundTrip(64, 96);  // whole blocks, N a multiple of 32
  ExpectRoundTrip(37, 64);  // a partial last block
  ExpectRoundTrip(70, 5);   // seed groups wrap across rows and K blocks
  ExpectRoundTrip(1, 1);
}

TEST(ReferenceLlmQ4, ScalesVaryAcrossTheMatrix) {
  const Q4Matrix m = RandomQ4Matrix(64, 64, 3);  // 2 K blocks × 2 column tiles of 32
  EXPECT_EQ(m.scales[0], m.scales[31 * 2]);      // n = 0 and 31 share block 0's scale
  EXPECT_NE(m.scales[0], m.scales[32 * 2]);      // n = 32 starts another tile
  EXPECT_NE(m.scales[0], m.scales[1]);           // block 1 of row 0
}

}  // namespace
}  // namespace refract::reference
