// The norm ops on the GPU: the caller's buffers of one call and the ops that compile the kernels
// and record their dispatches; the shapes, configurations and rules are norm_rules.h's.
#pragma once

#include "ops/op.h"
#include "ops/norm_rules.h"

namespace refract::ops {

/// The caller's buffers of one call, [rows, hidden] f32 unless said: x; weight [hidden]; y;
/// layernorm's bias [hidden]; add-rmsnorm's b and h (h = x + b, written).
struct NormBuffers {
  gpu::BufferSlice x, weight, y, bias, b, h;
};

/// The ops.
extern const Family<NormShape, RowConfig, NormBuffers> kNormOps;

}  // namespace refract::ops
