#include "reference/random_data.h"

namespace refract::reference {

uint64_t RandomStream::NextU64() {
  // SplitMix64 (Steele, Lea, Flood 2014): one add and a mixing function per value.
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

float RandomStream::NextUnit() {
  return static_cast<float>(NextU64() >> 40) * (1.0f / 16777216.0f);
}

uint32_t RandomStream::NextBelow(uint64_t bound) {
  return static_cast<uint32_t>(((NextU64() >> 32) * bound) >> 32);
}

std::vector<float> RandomFloats(size_t count, uint64_t seed, float lo, float hi) {
  RandomStream stream(seed);
  std::vector<float> values(count);
  for (float& value : values) value = stream.NextFloat(lo, hi);
  return values;
}

std::vector<uint32_t> RandomIndices(size_t count, uint64_t seed, uint32_t bound) {
  RandomStream stream(seed);
  std::vector<uint32_t> values(count);
  for (uint32_t& value : values) value = stream.NextBelow(bound);
  return values;
}

}  // namespace refract::reference
