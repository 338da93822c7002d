// The dimensions and weight formats every matmul op shares.
#pragma once

#include <cstdint>

namespace refract::ops {

/// C[M, N] = A[M, K] · Wᵀ, W being the N × K weight (output × input, the LLM layout).
struct MatmulDims {
  uint32_t m = 0;
  uint32_t k = 0;
  uint32_t n = 0;
};

/// How the tuned matmuls hold W.
enum class Weights {
  kF32,  ///< f32
  kQ4,   ///< 4-bit MatMulNBits (docs/KERNELS.md): blocks [N, KB] of 16 bytes, scales [N, KB] f32,
         ///< KB = ceil(K / 32), zero point 8
};

/// K blocks of 32 a q4 row holds: ceil(K / 32).
inline uint64_t Q4BlocksOf(uint32_t k) { return (uint64_t{k} + 31) / 32; }
/// A row of K floats padded to whole vec4 [floats].
inline uint64_t PaddedTo4(uint32_t n) { return (uint64_t{n} + 3) / 4 * 4; }

/// The uniform of every matmul kernel (seed 003's {M, K, N}), padded to 16 bytes; the seed's
/// int4 kernel has the group size in the padding's place.
struct MatmulParams {
  uint32_t m, k, n, group_size;
};

}  // namespace refract::ops
