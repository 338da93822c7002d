#include "reference/memory_pattern_models.h"

#include "base/error.h"
#include "reference/fill_pattern.h"

namespace refract::reference {
namespace {

// The multiplier and increment of the scatter permutation (ceil_write_scatter.wgsl).
constexpr uint32_t kScatterMultiplier = 2654435761u;
constexpr uint32_t kScatterIncrement = 1013904223u;

}  // namespace

std::vector<float> GatherModel(uint32_t threads, uint32_t loads, uint32_t window_vec4s) {
  const uint32_t mask = window_vec4s - 1;
  std::vector<float> out(threads);
  for (uint32_t t = 0; t < threads; ++t) {
    uint32_t h = t * 2654435761u;
    float sum[4] = {0, 0, 0, 0};
    for (uint32_t k = 0; k < loads; ++k) {
      h = h * 1664525u + 1013904223u;
      float value[4];
      FillPatternValue((h >> 8u) & mask, value);
      for (int c = 0; c < 4; ++c) sum[c] += value[c];
    }
    out[t] = (sum[0] + sum[1]) + (sum[2] + sum[3]);
  }
  return out;
}

std::vector<float> ScatterModel(uint32_t window_vec4s) {
  REFRACT_THROW_IF(window_vec4s == 0 || (window_vec4s & (window_vec4s - 1)) != 0 ||
                       window_vec4s > (uint32_t{1} << 24),
                   Error, "the scatter window must be a power of two of at most 2^24 vec4s");
  const uint32_t mask = window_vec4s - 1;
  std::vector<float> out(size_t{window_vec4s} * 4);
  std::vector<bool> hit(window_vec4s, false);
  for (uint32_t i = 0; i < window_vec4s; ++i) {
    const uint32_t j = (i * kScatterMultiplier + kScatterIncrement) & mask;
    // An odd multiplier never maps two i to one j; the model checks its own premise.
    REFRACT_THROW_IF(hit[j], Error, "the scatter hash is not a permutation");
    hit[j] = true;
    for (uint32_t c = 0; c < 4; ++c) out[size_t{j} * 4 + c] = static_cast<float>(i);
  }
  return out;
}

}  // namespace refract::reference
