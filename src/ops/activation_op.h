// The activation ops on the GPU: the caller's buffers of one call and the ops that compile the kernels
// and record their dispatches; the shapes, configurations and rules are activation_rules.h's.
#pragma once

#include "ops/op.h"
#include "ops/activation_rules.h"

namespace refract::ops {

/// The caller's buffers of one call, `count` f32 each: x (silu-mul: the gate), y, silu-mul's up.
struct ActivationBuffers {
  gpu::BufferSlice x, y, up;
};

/// The ops (the seed's silu-mul also allocates its intermediate silu(gate)).
extern const Family<ActivationShape, ActivationConfig, ActivationBuffers> kActivationOps;

}  // namespace refract::ops
