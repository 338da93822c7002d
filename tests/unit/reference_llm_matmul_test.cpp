// The matmul CPU model and its helpers, on products worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "reference/llm_matmul.h"

namespace refract::reference {
namespace {

// A = [[1, 2], [3, 4]], B = [[5, 6, 7], [8, 9, 10]]:
// C = [[1·5 + 2·8, 1·6 + 2·9, 1·7 + 2·10], [3·5 + 4·8, 3·6 + 4·9, 3·7 + 4·10]]
//   = [[21, 24, 27], [47, 54, 61]].
const std::vector<float> kA = {1, 2, 3, 4};
const std::vector<float> kB = {5, 6, 7, 8, 9, 10};

TEST(ReferenceLlmMatmul, ProductOfTwoSmallMatrices) {
  EXPECT_EQ(MatmulF32(kA, kB, 2, 2, 3), (std::vector<float>{21, 24, 27, 47, 54, 61}));
}

TEST(ReferenceLlmMatmul, SelectedOutputsFromTheTransposedWeight) {
  // W = Bᵀ = [[5, 8], [6, 9], [7, 10]]; flat 1 is C[0][1] = 24, flat 5 is C[1][2] = 61.
  const std::vector<float> w = {5, 8, 6, 9, 7, 10};
  const std::vector<size_t> indices = {1, 5};
  EXPECT_EQ(MatmulOutputs(kA, w, 2, 3, indices), (std::vector<double>{24, 61}));
}

TEST(ReferenceLlmMatmul, TransposeAndPadRows) {
  // [[1, 2, 3], [4, 5, 6]]ᵀ = [[1, 4], [2, 5], [3, 6]].
  const std::vector<float> m = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(Transpose(m, 2, 3), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(PadRows(m, 2, 3, 4), (std::vector<float>{1, 2, 3, 0, 4, 5, 6, 0}));
  EXPECT_EQ(RoundUpTo4(5), 8u);
  EXPECT_EQ(RoundUpTo4(8), 8u);
}

TEST(ReferenceLlmMatmul, ToleranceScalesWithTheOutput) {
  EXPECT_EQ(MatmulTolerance(50.0), (Tolerance{.absolute = 5e-3, .relative = 0}));
  EXPECT_EQ(MatmulIndexName(7, 3), "row 2, col 1");
}

TEST(ReferenceLlmMatmul, SmallProblemsAreCheckedWhole) {
  const std::vector<size_t> indices = MatmulCheckIndices(3, 5, 7, 1);
  ASSERT_EQ(indices.size(), 15u);
  EXPECT_EQ(indices.front(), 0u);
  EXPECT_EQ(indices.back(), 14u);
}

TEST(ReferenceLlmMatmul, LargeProblemsCheckRowsColumnsAndAGrid) {
  constexpr uint32_t kM = 1000, kN = 800, kK = 4096;  // 3.3 G multiply-adds: sampled
  const std::vector<size_t> indices = MatmulCheckIndices(kM, kN, kK, 7);
  EXPECT_TRUE(std::is_sorted(indices.begin(), indices.end()));
  EXPECT_EQ(std::adjacent_find(indices.begin(), indices.end()), indices.end());
  auto has = [&](uint32_t m, uint32_t n) {
    return std::binary_search(indices.begin(), indices.end(), size_t{m} * kN + n);
  };
  for (uint32_t n = 0; n < kN; ++n) EXPECT_TRUE(has(0, n) && has(500, n) && has(999, n));
  for (uint32_t m = 0; m < kM; ++m) EXPECT_TRUE(has(m, 0) && has(m, 400) && has(m, 799));
  // 3 rows + 3 columns − 9 shared + up to 32 × 32 grid points.
  const size_t lines = 3 * kN + 3 * kM - 9;
  EXPECT_GT(indices.size(), lines + 900);
  EXPECT_LE(indices.size(), lines + 1024);
}

}  // namespace
}  // namespace refract::reference
