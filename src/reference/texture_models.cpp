#include "reference/texture_models.h"

#include <algorithm>
#include <cmath>

#include "reference/fill_pattern.h"

namespace refract::reference {
namespace {

/// Thread t's sample k, as both kernels compute it: left texel and filter weight.
struct SamplePosition {
  uint32_t x0;
  float weight;
};
SamplePosition PositionOf(uint32_t t, uint32_t k) {
  uint32_t x0 = std::min((t * 7u + k * 61u) & (kInterpTextureWidth - 1), kInterpTextureWidth - 2);
  float weight = static_cast<float>(((t * 5u + k * 3u) & 15u) * 2u + 1u) * (1.0f / 32.0f);
  return {x0, weight};
}

}  // namespace

std::vector<float> InterpTexels() {
  std::vector<float> texels(size_t{kInterpTextureWidth} * 4);
  for (uint32_t i = 0; i < kInterpTextureWidth; ++i) FillPatternValue(i, &texels[size_t{i} * 4]);
  return texels;
}

InterpModelOutput InterpModel(uint32_t threads, uint32_t iterations) {
  InterpModelOutput model;
  model.sums.resize(threads);
  model.spread.resize(threads);
  for (uint32_t t = 0; t < threads; ++t) {
    float sum[4] = {0, 0, 0, 0};
    double spread = 0;
    for (uint32_t k = 0; k < iterations; ++k) {
      SamplePosition p = PositionOf(t, k);
      float a[4], b[4];
      FillPatternValue(p.x0, a);
      FillPatternValue(p.x0 + 1, b);
      for (int c = 0; c < 4; ++c) {
        // WGSL mix: a × (1 − w) + b × w; exact here (16-bit texels, 5-bit weights).
        sum[c] += a[c] * (1.0f - p.weight) + b[c] * p.weight;
        spread += std::fabs(static_cast<double>(b[c]) - a[c]);
      }
    }
    model.sums[t] = (sum[0] + sum[1]) + (sum[2] + sum[3]);
    model.spread[t] = spread;
  }
  return model;
}

}  // namespace refract::reference
