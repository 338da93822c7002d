// The element-wise add (residual) and mul (SwiGLU combine): seed 003's scalar kernels (baseline)
// and the vec4 kernel of `vpt` vec4 an invocation (tuned; buffers padded to whole vec4).
#pragma once

#include <cstdint>

#include "ops/op_rules.h"

namespace refract::ops {

enum class BinaryKind { kAdd, kMul };

/// "add" or "mul".
const char* BinaryKindName(BinaryKind kind);

using BinaryShape = CountShape<BinaryKind>;

struct BinaryConfig {
  uint32_t wg = 256;  ///< invocations a workgroup
  uint32_t vpt = 1;   ///< vec4 an invocation
};

/// The rules: the seed's kernels have no axes; the tuned op's are wg and vpt (default 256
/// invocations of one vec4).
extern const FamilyRules<BinaryShape, BinaryConfig> kBinaryRules;

}  // namespace refract::ops
