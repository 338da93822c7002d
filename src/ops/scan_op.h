// The scan ops on the GPU: the caller's buffers of one call and the ops that compile the kernels
// and record their dispatches; the shapes, configurations and rules are scan_rules.h's.
#pragma once

#include "ops/op.h"
#include "ops/scan_rules.h"

namespace refract::ops {

/// The caller's buffers: codes (vectors × d / 16 u32), norms (vectors f32), lut (8 × d × 4 f32),
/// scores (vectors × 8 f32).
struct ScanBuffers {
  gpu::BufferSlice codes, norms, lut, scores;
};

extern const OpKind<ScanShape, ScanConfig, ScanBuffers> kScan;

}  // namespace refract::ops
