// RoPE in place on q and k: seed 003's kernel (baseline: a thread a pair, the angle from pow)
// and the tuned kernel (a vec4 of one position in `hpt` heads an invocation, one sin/cos pair
// for all of them, the frequencies precomputed on the host).
#pragma once

#include <vector>

#include "ops/op_rules.h"
#include "reference/llm_rope.h"

namespace refract::ops {

using reference::RopeShape;

struct RopeConfig {
  uint32_t wg = 256;  ///< invocations a workgroup
  uint32_t hpt = 4;   ///< heads an invocation rotates with one sin/cos pair
};

/// base^(−2i / d) for i < d / 2, computed in double and rounded once (the tuned kernel's table).
std::vector<float> RopeInverseFrequencies(const RopeShape& shape);

/// The rules: the seed's kernel has no axes; the tuned op's are wg and hpt. Its default: 256
/// invocations; hpt the largest of 4, 3, 2, 1 dividing heads + kv_heads (no idle slot);
/// head_dim must be a multiple of 4 (vec4, two pairs).
extern const FamilyRules<RopeShape, RopeConfig> kRopeRules;

}  // namespace refract::ops
