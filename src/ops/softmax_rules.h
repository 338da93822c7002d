// Softmax over rows (attention scores): seed 003's three-pass kernel (baseline) and the
// one-read, register-resident row kernel (tuned: RowConfig's layout; elements beyond wg · vpt
// of a longer row are read again in each phase).
#pragma once

#include "ops/op_rules.h"
#include "ops/row_layout.h"

namespace refract::ops {

struct SoftmaxShape {
  uint32_t rows = 1;
  uint32_t row_size = 1;
};

/// The tuned kernel's row: 8 elements an invocation by default (on the H200 a 2048-float row
/// took 115 µs a 28,672-row pass with 64 invocations of 8 vec4, and with 32 × 16; 116 with
/// 128 × 4; 140 with 256 × 2: 2026-12-01), at most 16 (llm_softmax_tuned.wgsl's kMaxKept).
inline constexpr RowKernel kSoftmaxRowKernel{.max_kept = 16, .kept_target = 8};

/// The rules: the seed's kernel has no axes; the tuned op's are wg, vpt and subgroups
/// (ResolveRow at the row size).
extern const FamilyRules<SoftmaxShape, RowConfig> kSoftmaxRules;

}  // namespace refract::ops
