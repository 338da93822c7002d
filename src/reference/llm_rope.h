// CPU model of rotary position embedding (seed 003 §6), in double precision, in place on q and k.
//
// Pairing convention (the seed's): adjacent elements. Pair i of a head is (x[2i], x[2i+1]),
// rotated by θ = pos · base^(−2i/d) with pos = t + position_offset:
//   x'[2i] = x[2i] cos θ − x[2i+1] sin θ,   x'[2i+1] = x[2i] sin θ + x[2i+1] cos θ.
// (Not the "rotate half" convention that pairs i with i + d/2.)
#pragma once

#include <cstdint>
#include <span>

#include "base/verification.h"

namespace refract::reference {

/// One RoPE problem: q is [T, heads·d], k is [T, kv_heads·d].
struct RopeShape {
  uint32_t seq_len = 1;          ///< T
  uint32_t heads = 1;            ///< query heads
  uint32_t kv_heads = 1;         ///< key heads
  uint32_t head_dim = 2;         ///< d (even)
  uint32_t position_offset = 0;  ///< position of row 0
  float base = 10000.0f;         ///< θ base (Qwen2.5: 1e6, EmbeddingGemma: 1e4)
};

/// Rotates every pair of q and k in place (see the convention above).
void Rope(const RopeShape& shape, std::span<float> q, std::span<float> k);

/// A GPU forms the angle pos · base^(−2i/d) in f32: the product alone rounds by ~6e-8 of it, and
/// the frequency (pow or a table) and sin/cos of large arguments add errors of the same order, so
/// the absolute error of an output grows with the largest angle, pos_max radians:
/// |error| ≤ MaxMagnitude · (kRopeBaseTolerance + kRopePerRadianTolerance · pos_max).
inline constexpr double kRopeBaseTolerance = 1e-5;
inline constexpr double kRopePerRadianTolerance = 4e-7;

/// The tolerance above for outputs of largest magnitude MaxMagnitude(reference_output).
Tolerance RopeTolerance(const RopeShape& shape, std::span<const float> reference_output);

}  // namespace refract::reference
