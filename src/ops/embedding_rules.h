// The embedding gather output[t] = table[ids[t]]: seed 003's flat gather (baseline: one element
// a thread) and the tuned gather (one 16-byte row slice an invocation, scalar where the hidden
// size is not a multiple of 4).
#pragma once

#include <cstdint>

#include "ops/op_rules.h"

namespace refract::ops {

struct EmbeddingShape {
  uint32_t tokens = 0;  ///< T
  uint32_t hidden = 0;  ///< a row [f32]
  uint32_t vocab = 0;   ///< the table's rows
};

struct EmbeddingConfig {
  uint32_t wg = 256;  ///< invocations a workgroup
};

/// "vec4" (hidden a multiple of 4) or "scalar": the tuned entry point the shape takes.
const char* EmbeddingPath(const EmbeddingShape& shape);

/// The rules: the seed's kernel has no axes; the tuned op's is wg (default 256).
extern const FamilyRules<EmbeddingShape, EmbeddingConfig> kEmbeddingRules;

}  // namespace refract::ops
