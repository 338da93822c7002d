// The bandwidth sweep's kernels (SWEEPS.md): a vec4 copy of a whole buffer, and a vec4 read that
// folds each invocation's share into one sum; grid-stride over a capped grid.
#pragma once

#include <cstdint>

#include "ops/op.h"

namespace refract::ops {

enum class StreamKind {
  kCopy,  ///< destination = source
  kRead,  ///< sums[t] = the sum of invocation t's vec4
};

/// "copy" or "read".
const char* StreamKindName(StreamKind kind);

struct StreamProblem {
  StreamKind kind = StreamKind::kCopy;
  uint64_t bytes = 0;  ///< the buffer read, a whole number of vec4 [bytes]
};

/// The caller's buffers: `source` (bytes); copy: `destination` (bytes); read: `sums`
/// (StreamThreads f32).
struct StreamBuffers {
  gpu::BufferSlice source, destination, sums;
};

struct StreamConfig {
  uint32_t wg = 256;  ///< invocations a workgroup
};

/// Invocations of the grid: copy, one a vec4 up to 2^22; read, one per 8 vec4 (so its sums
/// are under 4 % of its traffic) up to 2^20, at least one workgroup; a whole number of wg.
uint32_t StreamThreads(const StreamConfig& config, const StreamProblem& problem);

/// wg (default 256).
extern const OpRules<StreamProblem, StreamConfig> kStreamRules;
extern const OpKind<StreamProblem, StreamConfig, StreamBuffers> kStream;

}  // namespace refract::ops
