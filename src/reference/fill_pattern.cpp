#include "reference/fill_pattern.h"

namespace refract::reference {

void FillPatternValue(uint32_t i, float out[4]) {
  uint32_t h = i * 2654435761u;
  constexpr float kScale = 1.0f / 65536.0f;
  out[0] = static_cast<float>(h & 0xffffu) * kScale;
  out[1] = static_cast<float>(h >> 16u) * kScale;
  out[2] = static_cast<float>(i & 1023u) * kScale;
  out[3] = 1.0f * kScale;
}

}  // namespace refract::reference
