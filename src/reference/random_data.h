// Deterministic pseudo-random inputs for kernels and their CPU models: the same values for the
// same seed on every platform (no standard-library distributions).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace refract::reference {

/// A small, fast generator (SplitMix64): the sequence depends only on the seed.
class RandomStream {
 public:
  explicit RandomStream(uint64_t seed) : state_(seed) {}
  uint64_t NextU64();
  /// Uniform in [0, 1), 24 random bits (every value exact in f32).
  float NextUnit();
  /// Uniform in [lo, hi).
  float NextFloat(float lo, float hi) { return lo + (hi - lo) * NextUnit(); }
  /// Uniform in [0, bound), bound from 1 to 2^32 (2^32: every u32).
  uint32_t NextBelow(uint64_t bound);

 private:
  uint64_t state_;
};

/// `count` floats uniform in [lo, hi).
std::vector<float> RandomFloats(size_t count, uint64_t seed, float lo = -1.0f, float hi = 1.0f);

/// `count` integers uniform in [0, bound).
std::vector<uint32_t> RandomIndices(size_t count, uint64_t seed, uint32_t bound);

}  // namespace refract::reference
