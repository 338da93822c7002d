// The softmax ops on the GPU: the caller's buffers of one call and the ops that compile the kernels
// and record their dispatches; the shapes, configurations and rules are softmax_rules.h's.
#pragma once

#include "ops/op.h"
#include "ops/softmax_rules.h"

namespace refract::ops {

/// The caller's buffers of one call: input and output, [rows, row_size] f32 each.
struct SoftmaxBuffers {
  gpu::BufferSlice input, output;
};

/// The ops.
extern const Family<SoftmaxShape, RowConfig, SoftmaxBuffers> kSoftmaxOps;

}  // namespace refract::ops
