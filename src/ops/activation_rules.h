// The activations: SiLU, GELU (tanh form) and the fused SwiGLU combine silu(gate) · up, as seed
// 003's scalar kernels (baseline; silu-mul = the seed's silu into a buffer of the op's own, then
// its mul) and as one vec4 kernel of `ept` elements an invocation (tuned).
#pragma once

#include <cstdint>
#include <string_view>

#include "ops/op_rules.h"

namespace refract::ops {

enum class ActivationKind { kSilu, kGelu, kSiluMul };

/// "silu", "gelu", "silu-mul".
std::string_view ActivationKindName(ActivationKind kind);

using ActivationShape = CountShape<ActivationKind>;

struct ActivationConfig {
  uint32_t wg = 256;  ///< invocations a workgroup
  uint32_t ept = 2;   ///< elements (vec4 where the count is a multiple of 4) an invocation
};

/// The rules: the seed's kernels have no axes; the tuned op's are wg and ept (default 256
/// invocations of 2 elements).
extern const FamilyRules<ActivationShape, ActivationConfig> kActivationRules;

}  // namespace refract::ops
