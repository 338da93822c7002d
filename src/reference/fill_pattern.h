// CPU model of ceil_fill_vec4.wgsl: the deterministic vec4 pattern the bandwidth, memory-pattern
// and texture rows fill their buffers with.
#pragma once

#include <cstdint>

namespace refract::reference {

/// Element i of the pattern: four floats, each exact in f32, in [0, 1).
void FillPatternValue(uint32_t i, float out[4]);

}  // namespace refract::reference
