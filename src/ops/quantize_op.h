// The quantize ops on the GPU: the caller's buffers of one call and the ops that compile the kernels
// and record their dispatches; the shapes, configurations and rules are quantize_rules.h's.
#pragma once

#include "ops/op.h"
#include "ops/quantize_rules.h"

namespace refract::ops {

/// The caller's buffers of one call: x [M, K] f32; codes [M · ceil(K / 32) · 8] u32; scale_sums
/// [M · ceil(K / 32)] × (d, Σq) f32.
struct QuantizeBuffers {
  gpu::BufferSlice x, codes, scale_sums;
};

extern const OpKind<QuantizeShape, QuantizeConfig, QuantizeBuffers> kQuantizeQ8;

}  // namespace refract::ops
