// The binary ops on the GPU: the caller's buffers of one call and the ops that compile the kernels
// and record their dispatches; the shapes, configurations and rules are binary_rules.h's.
#pragma once

#include "ops/op.h"
#include "ops/binary_rules.h"

namespace refract::ops {

/// The caller's buffers of one call: output = a + b (or a · b), `count` f32 each; for the tuned
/// op each holds count rounded up to whole vec4 (the last vec4 is written whole).
struct BinaryBuffers {
  gpu::BufferSlice a, b, output;
};

/// The ops.
extern const Family<BinaryShape, BinaryConfig, BinaryBuffers> kBinaryOps;

}  // namespace refract::ops
