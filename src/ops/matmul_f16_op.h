// The matmul f16 ops on the GPU: the caller's buffers of one call and the ops that compile the kernels
// and record their dispatches; the shapes, configurations and rules are matmul_f16_rules.h's.
#pragma once

#include "ops/op.h"
#include "ops/matmul_f16_rules.h"

namespace refract::ops {

/// The caller's buffers: a [M, K] and b [K, N] f16 (row-major, two to a u32 word; a whole
/// number of words), c [M, N] f32.
struct MatmulF16Buffers {
  gpu::BufferSlice a, b, c;
};

extern const OpKind<MatmulDims, MatmulF16Config, MatmulF16Buffers> kMatmulF16;

}  // namespace refract::ops
