// CPU model of the embedding lookup (seed 003 §1): output[t, d] = table[ids[t], d].
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/verification.h"

namespace refract::reference {

/// A gather copies values bit for bit: exact.
inline constexpr Tolerance kEmbeddingTolerance{};

/// Rows ids[t] of `table` [vocab, hidden], one after the other: [T, hidden]. Throws Error for an
/// id outside the table.
std::vector<float> Embedding(std::span<const uint32_t> ids, std::span<const float> table,
                             uint32_t hidden);

}  // namespace refract::reference
