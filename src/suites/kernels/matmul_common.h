// What the f32 and q4 matmul rows share: the shapes of the catalog, the tuned kernels'
// configurations (WGSL overrides) with their checks and compilation, and the output check.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/verification.h"
#include "bench/benchmark.h"
#include "gpu/context.h"
#include "suites/kernels/kernel_benchmark.h"

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

/// Options of a matmul row.
struct MatmulOptions {
  uint64_t cold_footprint_bytes = 0;  ///< the copies' span [bytes]; 0: the device's default
  uint64_t seed = 1;                  ///< of the data
  bool portable = false;              ///< GEMV row sums in workgroup memory even with subgroups
  std::optional<GemmConfig> gemm;     ///< default: DefaultGemmConfig
  std::optional<GemvConfig> gemv;     ///< default: DefaultGemvConfig
};

/// 128 × 128 × 16 tiles of 8 × 8 a thread when they give at least 128 workgroups (about one a
/// multiprocessor of the H200), else 64 × 64 tiles of 4 × 4 (BK 32 for q4, whose B tile is
/// loaded a u32 word of 8 codes a thread); A's rows padded by 4 floats unless that takes the
/// tiles over `workgroup_storage_bytes` (WebGPU's default limit 16384: then unpadded).
GemmConfig DefaultGemmConfig(const MatmulShape& shape, bool q4, uint32_t workgroup_storage_bytes);
/// 256 threads, 32 along K a row group, 2 rows a thread (f32) or 4 (q4, which re-reads x more).
GemvConfig DefaultGemvConfig(bool q4);

/// Why `config` cannot run on the device (tiles not a whole number of loads a thread, too many
/// threads, workgroup memory over the limit…), or nothing. `q4`: B loaded as u32 words.
std::optional<std::string> GemmConfigProblem(const gpu::Context& context, const GemmConfig& config,
                                             bool q4);
std::optional<std::string> GemvConfigProblem(const gpu::Context& context, const GemvConfig& config);
/// Why a buffer of `bytes` cannot be bound as storage on the device, or nothing.
std::optional<std::string> BindingProblem(const gpu::Context& context, uint64_t bytes,
                                          std::string_view what);

/// True when the GEMV row sums use subgroups: the device has them, `portable` is off and
/// `tpr` ≤ the device's smallest subgroup size.
bool UseSubgroupReduction(const gpu::Context& context, const GemvConfig& config, bool portable);

/// Compiles llm_gemm_core_part.wgsl followed by `main_kernel` with `config`'s overrides.
gpu::ComputePipeline CompileGemm(gpu::Context& context, std::string_view main_kernel,
                                 const GemmConfig& config, const std::string& label);
/// Compiles the GEMV row-sum file of the chosen path followed by `main_kernel`.
gpu::ComputePipeline CompileGemv(gpu::Context& context, std::string_view main_kernel,
                                 const GemvConfig& config, bool subgroups,
                                 const std::string& label);

/// The configuration Prepare chose, as params of the row ("path", the overrides, "reduction").
results::Params GemmParams(const GemmConfig& config);
results::Params GemvParams(const GemvConfig& config, bool subgroups);

/// The uniform of every matmul kernel (seed 003's {M, K, N}), padded to 16 bytes.
struct MatmulParams {
  uint32_t m, k, n, padding;
};

/// Compares the GPU's C (rows `c_stride` floats apart) with A · Wᵀ (`a` [M, K], `w` [N, K]) on
/// MatmulCheckIndices' outputs, within MatmulTolerance of the largest reference value checked.
VerificationRecord CheckMatmulOutput(const std::string& what, std::span<const float> gpu_c,
                                     uint32_t c_stride, const MatmulShape& shape,
                                     std::span<const float> a, std::span<const float> w,
                                     uint64_t seed);

/// "<family>/<model>/<op>/m<M>/<variant>" with the shape's params.
bench::BenchmarkInfo MatmulInfo(std::string_view family, const MatmulShape& shape, Variant variant,
                                std::string description);

}  // namespace refract::suites::kernels
