// The matmul rows' plan, pure (no GPU): the shapes of the catalog and the tuned kernels'
// configurations (WGSL overrides) with their defaults.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace refract::suites::kernels {

/// One product C[M, N] = A[M, K] · B[K, N] of a model (B = Wᵀ, W being the N × K weight).
struct MatmulShape {
  std::string model;  ///< "qwen2.5-0.5b", "embeddinggemma2" or "reference"
  std::string op;     ///< the model's matmuls of this shape, e.g. "gate+up"; or "square", "ffn"
  uint32_t m = 0;
  uint32_t k = 0;
  uint32_t n = 0;
};

/// Every model matmul (MatmulOps, identical shapes merged) at M = 1 for both models, M = 50 and
/// 2048 for Qwen2.5-0.5B (prefill), M = 128 for EmbeddingGemma 2 (its encoder), plus
/// 4096 × 4096 × 4096 and the bandwidth-bound GEMV 14336 × 4096 at M = 1.
std::vector<MatmulShape> MatmulCatalogShapes();

/// Tiles of the tuned GEMM (llm_gemm_core_part.wgsl's overrides): a workgroup computes BM × BN of C
/// with (BM / TM) · (BN / TN) threads, each TM × TN outputs, staging BK of K at a time; A's
/// staged rows are padded by `a_pad` floats (0 or 4) against bank conflicts.
struct GemmConfig {
  uint32_t bm = 128, bn = 128, bk = 16, tm = 8, tn = 8, a_pad = 4;
  uint32_t Threads() const { return (bm / tm) * (bn / tn); }
  /// Workgroup memory of the two tiles [bytes].
  uint32_t TileBytes() const { return bk * (bm + a_pad) * 4 + bk * bn * 4; }
};

/// The tuned GEMVs' overrides: `tpr` threads along K per row group (a power of two), each
/// accumulating `rows` rows (≤ 8), `wg` threads a workgroup.
struct GemvConfig {
  uint32_t wg = 256, tpr = 32, rows = 2;
  uint32_t RowsPerWorkgroup() const { return wg / tpr * rows; }
};

/// The first of 128 × 128 × 16 tiles of 8 × 8 a thread, 64 × 64 tiles of 4 × 4, 32 × 32 tiles
/// of 4 × 4 (64 threads) that gives at least 128 workgroups (about one a multiprocessor of the
/// H200), else the last (BK 32 for q4's smaller tiers, whose B tile is loaded a u32 word of 8
/// codes a thread); A's rows padded by 4 floats unless that takes the tiles over
/// `workgroup_storage_bytes` (WebGPU's default limit 16384: then unpadded).
GemmConfig DefaultGemmConfig(const MatmulShape& shape, bool q4, uint32_t workgroup_storage_bytes);
/// 256 threads, 32 along K a row group, 2 rows a thread; for q4 on a GPU 1 when the matrix has
/// fewer than 8192 rows (`n`), which needs more row groups to fill the device, and on a CPU
/// adapter (`cpu`) 4, since a CPU runs few invocations at once and pays for each.
GemvConfig DefaultGemvConfig(bool q4, uint32_t n, bool cpu);

/// The configurations a row's overrides (`--set`) ask for; nothing: the default.
struct MatmulOverrides {
  std::optional<GemmConfig> gemm;
  std::optional<GemvConfig> gemv;
};

/// The GEMV's configuration when WG, TPR or ROWS is given: each given value replaces that of
/// GemvConfig{} (256 threads, 32 a row group, 2 rows a thread); the GEMM's when BM or BN is
/// given: BM, BN, BK, TM, TN and A_PAD replace those of 128 × 128 × 16 tiles of 8 × 8 (BK 32 for
/// q4) with A padded by 4. Any other name throws UsageError listing the known ones.
MatmulOverrides ParseMatmulOverrides(const std::map<std::string, double>& overrides, bool q4);

}  // namespace refract::suites::kernels
