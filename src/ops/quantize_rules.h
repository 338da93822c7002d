// The activation quantizer of the q4 GEMV's q8 path (reference/llm_q8.h): x [M, K] f32 to codes
// in blocks of 32 (each row its own blocks) with each block's (d, Σq), four invocations a block.
// A decode step fuses it into the norm before the GEMV; as its own op it is what the GEMV's rows
// time beside it and what the GEMV's check quantizes with.
#pragma once

#include <cstdint>

#include "ops/op_rules.h"

namespace refract::ops {

struct QuantizeShape {
  uint32_t k = 0;  ///< values of a row of x [f32]
  uint32_t m = 1;  ///< rows of x
};

struct QuantizeConfig {
  uint32_t wg = 64;  ///< invocations a workgroup (four a block)
  /// 1: a block's four invocations combine its max and sum by subgroup shuffles; 0: through
  /// workgroup memory and a barrier each.
  uint32_t subgroups = 0;
};

/// wg (default 64), subgroups (default 1 where the device has subgroups). No baseline: seed 003
/// has no quantizer.
extern const OpRules<QuantizeShape, QuantizeConfig> kQuantizeQ8Rules;

}  // namespace refract::ops
