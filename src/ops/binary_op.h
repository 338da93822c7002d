// The element-wise add (residual) and mul (SwiGLU combine): seed 003's scalar kernels (baseline)
// and the vec4 kernel of `vpt` vec4 an invocation (tuned; buffers padded to whole vec4).
#pragma once

#include <cstdint>

#include "ops/op.h"

namespace refract::ops {

enum class BinaryKind { kAdd, kMul };

/// "add" or "mul".
const char* BinaryKindName(BinaryKind kind);

using BinaryProblem = CountProblem<BinaryKind>;

/// The caller's buffers of one call: output = a + b (or a · b), `count` f32 each; for the tuned
/// op each holds count rounded up to whole vec4 (the last vec4 is written whole).
struct BinaryBuffers {
  gpu::BufferSlice a, b, output;
};

struct BinaryConfig {
  uint32_t wg = 256;  ///< invocations a workgroup
  uint32_t vpt = 1;   ///< vec4 an invocation
};

/// The rules: the seed's kernels have no axes; the tuned op's are wg and vpt (default 256
/// invocations of one vec4).
extern const FamilyRules<BinaryProblem, BinaryConfig> kBinaryRules;
/// The ops.
extern const Family<BinaryProblem, BinaryConfig, BinaryBuffers> kBinaryOps;

}  // namespace refract::ops
