// The matmuls C[M, N] = A[M, K] · Wᵀ (W the N × K weight): seed 003's kernels (the baseline: its
// 16 × 16 tiled f32 matmul on B [K, N], and its untiled int4 matmul on its own layout), the tuned
// GEMV for M = 1 (row groups of `tpr` invocations striding along K, `rows` rows each, sums by
// subgroup shuffles or a workgroup-memory tree) and the tuned GEMM for M > 1 (bm × bn tiles of
// C a workgroup, tm × tn an invocation, bk of K staged a step in workgroup memory; q4
// dequantizes its B tile there).
#pragma once

#include <map>
#include <string>
#include <string_view>

#include <cstdint>

#include "ops/op_rules.h"

namespace refract::ops {

struct MatmulDims {
  uint32_t m = 0, k = 0, n = 0;
};

/// How W is held.
enum class Weights {
  kF32,  ///< f32
  kQ4,   ///< 4-bit: the tuned kernels' MatMulNBits blocks [N, KB] of 16 bytes with scales
         ///< [N, KB] f32 (KB = ceil(K / 32), zero point 8); the seed's own int4 layout for its
         ///< baseline (8 codes a u32 along the flat [K, N] order, f32 scale and zero a group)
};

struct MatmulShape {
  Weights weights = Weights::kF32;
  MatmulDims dims;
};

struct GemvConfig {
  uint32_t wg = 256;       ///< invocations a workgroup
  uint32_t tpr = 32;       ///< invocations along K a row group
  uint32_t rows = 2;       ///< rows an invocation accumulates
  uint32_t subgroups = 0;  ///< 1: row sums through subgroup shuffles; 0: workgroup memory
  uint32_t batch = 2;      ///< the q8 GEMV only: K blocks a lane loads before it computes
  uint32_t adjacent = 0;  ///< the q8 GEMV only: 1, a lane's blocks of a trip adjacent; 0, tpr apart
};

struct GemmConfig {
  uint32_t bm = 128, bn = 128, bk = 16, tm = 8, tn = 8;
  uint32_t a_pad = 4;    ///< floats padding each staged row of A (against bank conflicts)
  uint32_t split_k = 1;  ///< slices of K, each its own workgroups, summed by a second dispatch
  uint32_t Invocations() const { return (bm / tm) * (bn / tn); }
  /// Workgroup memory of the two tiles [bytes].
  uint32_t TileBytes() const { return bk * (bm + a_pad) * 4 + bk * bn * 4; }
};

/// K blocks of 32 a q4 row holds: ceil(K / 32).
inline uint64_t Q4BlocksOf(uint32_t k) { return (uint64_t{k} + 31) / 32; }
/// `n` floats padded to whole vec4.
inline uint64_t PaddedTo4(uint32_t n) { return (uint64_t{n} + 3) / 4 * 4; }
/// The tuned GEMM's row stride of C: N padded to whole vec4 [floats].
inline uint32_t GemmCStride(const MatmulDims& dims) {
  return static_cast<uint32_t>(PaddedTo4(dims.n));
}
/// K of one slice of a split-K GEMM: whole steps of bk [elements].
inline uint32_t GemmKPerSplit(const GemmConfig& c, uint32_t k) {
  const uint64_t steps = (uint64_t{k} + c.bk - 1) / c.bk;
  return static_cast<uint32_t>((steps + c.split_k - 1) / c.split_k * c.bk);
}

/// Seed 003's matmuls (§2 f32, §3 int4): no axes; the bindings checked.
extern const OpRules<MatmulShape, NoConfig> kSeedMatmulRules;
/// The tuned GEMV (M = 1): wg, tpr, rows, subgroups. Default: 256 invocations, 32 along K a row
/// group; 2 rows an invocation for f32; for q4 on a GPU 1 below 8192 rows (a narrow matrix needs
/// the workgroups that more rows an invocation would merge) and 2 from there, on a CPU adapter 4
/// (a CPU runs few invocations at once and pays for each); subgroup sums where the device's
/// smallest subgroup holds tpr.
extern const OpRules<MatmulShape, GemvConfig> kGemvRules;
/// The tuned GEMM (M > 1): bm, bn, bk, tm, tn, a_pad, split_k. Default: the first of 128 × 128 ×
/// 16 tiles of 8 × 8, 64 × 64 tiles of 4 × 4, 32 × 32 tiles of 4 × 4 that gives at least 128
/// workgroups (about one a multiprocessor of a large GPU), else the last (bk 32 for q4's smaller
/// tiers, whose B tile is loaded a u32 word of 8 codes an invocation); A padded by 4 unless that
/// takes the tiles over the device's workgroup memory; where the tiles make fewer than 256
/// workgroups (a short prefill: M = 50), K split into slices until about 512 (each slice at
/// least 4 steps of bk), since a lone workgroup's walk along K waits on memory at every step.
extern const OpRules<MatmulShape, GemmConfig> kGemmRules;

/// The tuned GEMV on int8 activations (q4 weights, M ≤ 8, dot4I8Packed): the GEMV's axes and
/// batch (1, 2 or 4) and adjacent. Default on a CPU adapter: 256 invocations, 32 along K a row
/// group, 4 rows an invocation at M = 1 (1 at M > 1), batch 2, adjacent 0. On a GPU: 16 along K a
/// row group at M = 1 from 8192 rows, 8 at M > 1 from 65,536 rows, else 32; 1 row an invocation
/// but 2 at M = 1 from 65,536 rows (the LM head), with 64 invocations a workgroup there, else
/// 256; at M = 1 where a row holds 4 · tpr blocks or more, batch 4 from 8192 rows and below them
/// batch 2 with adjacent 1 (down), else batch 2, adjacent 0. Subgroup sums as the GEMV's.
extern const OpRules<MatmulShape, GemvConfig> kGemvQ8Rules;

/// The q8 GEMV kernel's override constants at `config` for `shape` (WG, TPR, ROWS, M_ROWS,
/// K_COLS, N_ROWS, ACCS, K_BATCH, ADJACENT): what the op and the decode step's fused GEMVs,
/// which end the same kernel otherwise, compile it with.
std::map<std::string, double> GemvQ8Constants(const MatmulShape& shape, const GemvConfig& config);

/// The row-sum part a GEMV at `config` composes: subgroup or workgroup sums.
std::string_view GemvReducePart(const GemvConfig& config);

}  // namespace refract::ops
