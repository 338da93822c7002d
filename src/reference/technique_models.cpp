#include "reference/technique_models.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace refract::reference {
namespace {

// Seeds that keep the inputs of different rows unrelated.
constexpr uint32_t kScaleAddSeed = 0x5ca1eu;
constexpr uint32_t kParticleSeed = 0x9a271c1eu;
constexpr uint32_t kImageSeed = 0x1a6eu;
constexpr uint32_t kSegmentSeed = 0x5e6eu;
constexpr uint32_t kBranchSeed = 0xb7a9c4u;
constexpr uint32_t kHistogramSeed = 0x4157u;

/// k/256 with k = hash & 4095: a value in [0, 16) with at most 12 significant bits.
float Sixteenths(uint32_t index, uint32_t seed) {
  return static_cast<float>(TechniqueHash(index, seed) & 4095u) * (1.0f / 256.0f);
}

uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

uint32_t TechniqueHash(uint32_t index, uint32_t seed) {
  uint32_t h = index * 2654435761u ^ seed;
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

std::vector<float> ScaleAddInput(size_t count) {
  std::vector<float> x(count);
  for (size_t i = 0; i < count; ++i) x[i] = Sixteenths(static_cast<uint32_t>(i), kScaleAddSeed);
  return x;
}

std::vector<float> ScaleAddModel(std::span<const float> x, float a, float b) {
  std::vector<float> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = x[i] * a + b;
  return y;
}

size_t ParticleIndex(ParticleLayout layout, uint32_t count, uint32_t particle, uint32_t field) {
  switch (layout) {
    case ParticleLayout::kAos:
      return size_t{particle} * kParticleFields + field;
    case ParticleLayout::kSoa:
      return size_t{field} * count + particle;
    case ParticleLayout::kAosoa:
      return (size_t{particle / kAosoaBlock} * kParticleFields + field) * kAosoaBlock +
             particle % kAosoaBlock;
  }
  return 0;
}

std::vector<float> MakeParticles(ParticleLayout layout, uint32_t count) {
  if (count % kAosoaBlock != 0) {
    throw std::invalid_argument("MakeParticles: count must be a multiple of 32");
  }
  std::vector<float> data(size_t{count} * kParticleFields);
  for (uint32_t p = 0; p < count; ++p) {
    for (uint32_t f = 0; f < kParticleFields; ++f) {
      float value = Sixteenths(p * kParticleFields + f, kParticleSeed);
      if (f >= 3 && f < 6) value -= 8.0f;  // velocities in [-8, 8)
      data[ParticleIndex(layout, count, p, f)] = value;
    }
  }
  return data;
}

void AdvanceParticles(ParticleLayout layout, uint32_t count, float dt, std::vector<float>& data) {
  for (uint32_t p = 0; p < count; ++p) {
    for (uint32_t axis = 0; axis < 3; ++axis) {
      float& position = data[ParticleIndex(layout, count, p, axis)];
      position = position + data[ParticleIndex(layout, count, p, axis + 3)] * dt;
    }
  }
}

std::vector<float> MakeImage(uint32_t width, uint32_t height) {
  std::vector<float> image(size_t{width} * height);
  for (size_t i = 0; i < image.size(); ++i) {
    image[i] = Sixteenths(static_cast<uint32_t>(i), kImageSeed);
  }
  return image;
}

std::vector<float> BoxStencil3x3(std::span<const float> image, uint32_t width, uint32_t height) {
  std::vector<float> out(size_t{width} * height);
  auto at = [&](int64_t x, int64_t y) {
    x = std::clamp<int64_t>(x, 0, int64_t{width} - 1);
    y = std::clamp<int64_t>(y, 0, int64_t{height} - 1);
    return image[static_cast<size_t>(y) * width + static_cast<size_t>(x)];
  };
  for (int64_t y = 0; y < height; ++y) {
    for (int64_t x = 0; x < width; ++x) {
      float sum = 0.0f;  // exact: 9 multiples of 1/256 below 16
      for (int64_t dy = -1; dy <= 1; ++dy) {
        for (int64_t dx = -1; dx <= 1; ++dx) sum += at(x + dx, y + dy);
      }
      out[static_cast<size_t>(y) * width + static_cast<size_t>(x)] = sum * (1.0f / 9.0f);
    }
  }
  return out;
}

std::vector<uint32_t> MakeSegments(uint32_t segments, uint32_t length) {
  std::vector<uint32_t> data(size_t{segments} * length);
  for (size_t i = 0; i < data.size(); ++i) {
    data[i] = TechniqueHash(static_cast<uint32_t>(i), kSegmentSeed) & 0xffffu;
  }
  return data;
}

std::vector<uint32_t> SegmentSums(std::span<const uint32_t> data, uint32_t length) {
  std::vector<uint32_t> sums(data.size() / length, 0u);
  for (size_t i = 0; i < sums.size() * length; ++i) sums[i / length] += data[i];
  return sums;
}

std::vector<float> MakeBranchLanes(uint32_t lanes) {
  std::vector<float> data(lanes);
  for (uint32_t i = 0; i < lanes; ++i) {
    data[i] = static_cast<float>(TechniqueHash(i, kBranchSeed) & 2047u);
  }
  return data;
}

float BranchStep(float x) { return x < 1024.0f ? x * 2.0f + 1.0f : x * 2.0f - 2048.0f; }

std::vector<float> BranchModel(std::span<const float> lanes, uint32_t steps) {
  std::vector<float> out(lanes.begin(), lanes.end());
  for (float& x : out) {
    for (uint32_t k = 0; k < steps; ++k) x = BranchStep(x);
  }
  return out;
}

std::vector<uint32_t> MakeHistogramKeys(uint32_t count) {
  std::vector<uint32_t> keys(count);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t h = TechniqueHash(i, kHistogramSeed);
    keys[i] = (h & 1u) ? 0u : 1u + (h >> 1) % (kHistogramBins - 1);
  }
  return keys;
}

std::vector<uint32_t> Histogram32(std::span<const uint32_t> keys) {
  std::vector<uint32_t> bins(kHistogramBins, 0u);
  for (uint32_t key : keys) ++bins.at(key);
  return bins;
}

std::vector<uint32_t> SattoloPermutation(uint32_t count, uint64_t seed) {
  if (count < 2) throw std::invalid_argument("SattoloPermutation: count must be at least 2");
  std::vector<uint32_t> next(count);
  for (uint32_t i = 0; i < count; ++i) next[i] = i;
  uint64_t state = seed;
  // Sattolo: swap each position with a strictly earlier one, which leaves one cycle.
  for (uint32_t i = count - 1; i > 0; --i) {
    auto j = static_cast<uint32_t>(SplitMix64(state) % i);  // j in [0, i)
    std::swap(next[i], next[j]);
  }
  return next;
}

std::vector<uint32_t> ChainEnds(std::span<const uint32_t> next, uint32_t chains,
                                uint32_t start_stride, uint32_t hops) {
  std::vector<uint32_t> ends(chains);
  for (uint32_t t = 0; t < chains; ++t) {
    uint32_t i = t * start_stride;
    for (uint32_t h = 0; h < hops; ++h) i = next[i];
    ends[t] = i;
  }
  return ends;
}

}  // namespace refract::reference
