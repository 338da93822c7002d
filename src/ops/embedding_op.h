// The embedding ops on the GPU: the caller's buffers of one call and the ops that compile the kernels
// and record their dispatches; the shapes, configurations and rules are embedding_rules.h's.
#pragma once

#include "ops/op.h"
#include "ops/embedding_rules.h"

namespace refract::ops {

/// The caller's buffers of one call: ids [T] u32, table [vocab, hidden] f32, output [T, hidden].
struct EmbeddingBuffers {
  gpu::BufferSlice ids, table, output;
};

/// The ops.
extern const Family<EmbeddingShape, EmbeddingConfig, EmbeddingBuffers> kEmbeddingOps;

}  // namespace refract::ops
