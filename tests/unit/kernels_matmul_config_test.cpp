// The matmul rows' shapes and default tuned configurations (no GPU).
#include <gtest/gtest.h>

#include <algorithm>

#include "base/error.h"
#include "suites/kernels/matmul_config.h"

namespace refract::suites::kernels {
namespace {

TEST(KernelsMatmulConfig, CatalogShapes) {
  const std::vector<MatmulShape> shapes = MatmulCatalogShapes();
  // Qwen: q+o, k+v, gate+up, down, lm-head at M = 1, 50, 2048; Gemma: q, k+v, o, gate+up, down,
  // head at M = 1, 128; then the square and the FFN GEMV.
  EXPECT_EQ(shapes.size(), 5u * 3u + 6u * 2u + 2u);
  auto has = [&](const std::string& op, uint32_t m, uint32_t k, uint32_t n) {
    return std::any_of(shapes.begin(), shapes.end(), [&](const MatmulShape& s) {
      return s.op == op && s.m == m && s.k == k && s.n == n;
    });
  };
  EXPECT_TRUE(has("q+o", 50, 896, 896));
  EXPECT_TRUE(has("down", 2048, 4864, 896));
  EXPECT_TRUE(has("lm-head", 1, 896, 151936));
  EXPECT_TRUE(has("gate+up", 128, 512, 2048));
  EXPECT_TRUE(has("square", 4096, 4096, 4096));
  EXPECT_TRUE(has("ffn", 1, 4096, 14336));
}

TEST(KernelsMatmulConfig, LargeTilesOnlyWhereTheyFillTheDevice) {
  const GemmConfig big = DefaultGemmConfig({"r", "square", 4096, 4096, 4096}, false, 49152);
  EXPECT_EQ(big.bm, 128u);
  EXPECT_EQ(big.Threads(), 256u);
  EXPECT_EQ(big.TileBytes(), 16u * 132 * 4 + 16u * 128 * 4);
  // 2048 × 896: 16 × 7 = 112 large tiles, fewer than 128: 64 × 64 tiles.
  const GemmConfig small = DefaultGemmConfig({"q", "q+o", 2048, 896, 896}, false, 49152);
  EXPECT_EQ(small.bm, 64u);
  EXPECT_EQ(small.Threads(), 256u);
  EXPECT_EQ(DefaultGemmConfig({"q", "q+o", 50, 896, 896}, true, 49152).bk, 32u);
  // 50 x 896: 64 x 64 tiles give 14 workgroups, 32 x 32 tiles 56: the smallest tier.
  const GemmConfig tiny = DefaultGemmConfig({"q", "q+o", 50, 896, 896}, false, 49152);
  EXPECT_EQ(tiny.bm, 32u);
  EXPECT_EQ(tiny.Threads(), 64u);
}

TEST(KernelsMatmulConfig, TilesFitWebGpuDefaultLimits) {
  for (bool q4 : {false, true}) {
    for (uint32_t m : {128u, 4096u}) {
      const GemmConfig config = DefaultGemmConfig({"r", "x", m, 4096, 4096}, q4, 16384);
      EXPECT_LE(config.TileBytes(), 16384u);
      // 128 × 128 × 16 (16,640 bytes padded) and q4's 64 × 64 × 32 (16,896) drop the padding;
      // f32's 64 × 64 × 16 (8,448) keeps it.
      EXPECT_EQ(config.a_pad, q4 || m == 4096 ? 0u : 4u);
    }
  }
}

TEST(KernelsMatmulConfig, GemvDefaults) {
  EXPECT_EQ(DefaultGemvConfig(false, 14336, false).RowsPerWorkgroup(), 16u);
  EXPECT_EQ(DefaultGemvConfig(false, 896, false).RowsPerWorkgroup(), 16u);
  EXPECT_EQ(DefaultGemvConfig(false, 896, true).RowsPerWorkgroup(), 16u);
  EXPECT_EQ(DefaultGemvConfig(true, 14336, false).RowsPerWorkgroup(), 16u);
  EXPECT_EQ(DefaultGemvConfig(true, 8192, false).RowsPerWorkgroup(), 16u);
  EXPECT_EQ(DefaultGemvConfig(true, 8191, false).RowsPerWorkgroup(), 8u);
  EXPECT_EQ(DefaultGemvConfig(true, 896, true).RowsPerWorkgroup(), 32u);
  EXPECT_EQ(DefaultGemvConfig(true, 14336, true).RowsPerWorkgroup(), 32u);
}

TEST(KernelsMatmulConfig, OverridesReplaceOnlyTheValuesGiven) {
  const MatmulOverrides none = ParseMatmulOverrides({}, true);
  EXPECT_FALSE(none.gemm);
  EXPECT_FALSE(none.gemv);
  const MatmulOverrides gemv = ParseMatmulOverrides({{"ROWS", 3}}, true);
  ASSERT_TRUE(gemv.gemv);
  EXPECT_FALSE(gemv.gemm);
  EXPECT_EQ(gemv.gemv->wg, 256u);
  EXPECT_EQ(gemv.gemv->tpr, 32u);
  EXPECT_EQ(gemv.gemv->rows, 3u);
  const MatmulOverrides gemm = ParseMatmulOverrides({{"BM", 64}, {"A_PAD", 0}}, true);
  ASSERT_TRUE(gemm.gemm);
  EXPECT_EQ(gemm.gemm->bm, 64u);
  EXPECT_EQ(gemm.gemm->bn, 128u);
  EXPECT_EQ(gemm.gemm->bk, 32u);  // q4
  EXPECT_EQ(gemm.gemm->a_pad, 0u);
  EXPECT_FALSE(ParseMatmulOverrides({{"TM", 4}}, false).gemm);  // tiles change with BM or BN
  EXPECT_THROW(ParseMatmulOverrides({{"VPT", 2}}, false), UsageError);
}

}  // namespace
}  // namespace refract::suites::kernels
