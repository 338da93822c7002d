// The attention ops on the GPU: the caller's buffers of one call and the ops that compile the kernels
// and record their dispatches; the shapes, configurations and rules are attention_rules.h's.
#pragma once

#include "ops/op.h"
#include "ops/attention_rules.h"

namespace refract::ops {

/// The caller's buffers of one call: q [T, heads · d], k and v [S, kv_heads · d], out like q.
struct AttentionBuffers {
  gpu::BufferSlice q, k, v, out;
};

/// The ops (the tuned one also allocates the split partials when the keys are split).
extern const Family<AttentionShape, AttentionConfig, AttentionBuffers> kAttentionOps;
extern const OpKind<AttentionShape, AttentionDecodeConfig, AttentionBuffers> kAttentionDecode;

}  // namespace refract::ops
