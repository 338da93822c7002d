// The stream ops on the GPU: the caller's buffers of one call and the ops that compile the kernels
// and record their dispatches; the shapes, configurations and rules are stream_rules.h's.
#pragma once

#include "ops/op.h"
#include "ops/stream_rules.h"

namespace refract::ops {

/// The caller's buffers: `source` (bytes); copy: `destination` (bytes); read: `sums`
/// (StreamThreads f32).
struct StreamBuffers {
  gpu::BufferSlice source, destination, sums;
};

extern const OpKind<StreamShape, StreamConfig, StreamBuffers> kStream;

}  // namespace refract::ops
