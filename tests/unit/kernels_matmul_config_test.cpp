// The matmul rows' shapes (no GPU).
#include <gtest/gtest.h>

#include <algorithm>

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

}  // namespace
}  // namespace refract::suites::kernels
