// The matmul rows' shapes, pure (no GPU): every model matmul of the catalog. The tuned kernels'
// configurations are their ops' (ops/gemv_op.h, ops/gemm_op.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ops/op_kinds.h"

namespace refract::suites::kernels {

/// One product C[M, N] = A[M, K] · Wᵀ of a model (W being the N × K weight).
struct MatmulShape {
  std::string model;  ///< "qwen2.5-0.5b", "embeddinggemma2" or "reference"
  std::string op;     ///< the model's matmuls of this shape, e.g. "gate+up"; or "square", "ffn"
  uint32_t m = 0;
  uint32_t k = 0;
  uint32_t n = 0;

  ops::MatmulDims Dims() const { return {.m = m, .k = k, .n = n}; }
};

/// Every model matmul (MatmulOps, identical shapes merged) at M = 1 for both models, M = 50 and
/// 2048 for Qwen2.5-0.5B (prefill), M = 128 for EmbeddingGemma 2 (its encoder), plus
/// 4096 × 4096 × 4096 and the bandwidth-bound GEMV 14336 × 4096 at M = 1.
std::vector<MatmulShape> MatmulCatalogShapes();

}  // namespace refract::suites::kernels
