// The reduce ops on the GPU: the caller's buffers of one call and the ops that compile the kernels
// and record their dispatches; the shapes, configurations and rules are reduce_rules.h's.
#pragma once

#include "ops/op.h"
#include "ops/reduce_rules.h"

namespace refract::ops {

/// The caller's buffers: `data` (count f32), `partials` (ReducePartials f32: each workgroup's
/// sum, which a check can read) and `result` (one f32, the sum).
struct ReduceBuffers {
  gpu::BufferSlice data, partials, result;
};

extern const OpKind<ReduceShape, ReduceConfig, ReduceBuffers> kReduce;

}  // namespace refract::ops
