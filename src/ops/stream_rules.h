// The bandwidth sweep's kernels (SWEEPS.md): a vec4 copy of a whole buffer, and a vec4 read that
// folds each invocation's share into one sum; grid-stride over a capped grid.
#pragma once

#include <cstdint>

#include "ops/op_rules.h"

namespace refract::ops {

enum class StreamKind {
  kCopy,  ///< destination = source
  kRead,  ///< sums[t] = the sum of invocation t's vec4
};

/// "copy" or "read".
const char* StreamKindName(StreamKind kind);

struct StreamShape {
  StreamKind kind = StreamKind::kCopy;
  uint64_t bytes = 0;  ///< the buffer read, a whole number of vec4 [bytes]
};

struct StreamConfig {
  uint32_t wg = 256;  ///< invocations a workgroup
};

/// Invocations of the grid: copy, one a vec4 up to 2^22; read, one per 8 vec4 (so its sums
/// are under 4 % of its traffic) up to 2^20, at least one workgroup; a whole number of wg.
uint32_t StreamThreads(const StreamConfig& config, const StreamShape& problem);

/// wg (default 256).
extern const OpRules<StreamShape, StreamConfig> kStreamRules;

}  // namespace refract::ops
