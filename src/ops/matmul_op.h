// The matmul ops on the GPU: the caller's buffers of one call and the ops that compile the kernels
// and record their dispatches; the shapes, configurations and rules are matmul_rules.h's.
#pragma once

#include "ops/op.h"
#include "ops/matmul_rules.h"

namespace refract::ops {

/// The caller's buffers of one call. Baseline: a [M, K], `w` the seed's B ([K, N] f32, or its
/// packed int4 words, `scales` and `zeros`), c [M, N]. Tuned: a [M, K] rows padded with zeros to
/// whole vec4; f32 `w` as the GEMV's W [N, K] or the GEMM's B [K, N], rows padded to whole vec4;
/// q4 `w` the MatMulNBits blocks and `scales`; c [M, N] (the GEMM's rows GemmCStride apart).
/// The q8 GEMV: `a` the quantized x's code words and `a_scales` its blocks' (d, Σq).
struct MatmulBuffers {
  gpu::BufferSlice a, w, scales, zeros, c, a_scales;
};

extern const OpKind<MatmulShape, NoConfig, MatmulBuffers> kSeedMatmul;
extern const OpKind<MatmulShape, GemvConfig, MatmulBuffers> kGemv;
extern const OpKind<MatmulShape, GemvConfig, MatmulBuffers> kGemvQ8;
extern const OpKind<MatmulShape, GemmConfig, MatmulBuffers> kGemm;

}  // namespace refract::ops
