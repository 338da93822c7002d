// The rope ops on the GPU: the caller's buffers of one call and the ops that compile the kernels
// and record their dispatches; the shapes, configurations and rules are rope_rules.h's.
#pragma once

#include "ops/op.h"
#include "ops/rope_rules.h"

namespace refract::ops {

/// The caller's buffers of one call, rotated in place: q [T, heads · d], k [T, kv_heads · d].
struct RopeBuffers {
  gpu::BufferSlice q, k;
};

/// The ops.
extern const Family<RopeShape, RopeConfig, RopeBuffers> kRopeOps;

}  // namespace refract::ops
