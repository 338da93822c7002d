// What the bandwidth rows share: the grid of docs/CEILINGS.md "Bandwidth", the count uniform
// of their kernels, and the deterministic GPU fill (ceil_fill_vec4.wgsl, whose CPU model is
// reference/fill_pattern.h).
#pragma once

#include <cstdint>

#include "gpu/context.h"

namespace refract::suites::ceilings {

inline constexpr uint32_t kBandwidthWorkgroupSize = 256;  ///< the kernels' @workgroup_size
inline constexpr uint32_t kBandwidthWorkgroups = 1024;    ///< docs/CEILINGS.md: 1024 workgroups
inline constexpr uint32_t kBandwidthThreads = kBandwidthWorkgroupSize * kBandwidthWorkgroups;
inline constexpr uint64_t kVec4Bytes = 16;  ///< one vec4<f32> [bytes]

/// The Params of the bandwidth kernels: { count, 0, 0, 0 }.
struct CountParams {
  uint32_t count = 0;
  uint32_t padding[3] = {0, 0, 0};  // uniform buffers are bound in 16-byte units
};

/// Fills the first `count` vec4s of `data` on the GPU with the pattern of ceil_fill_vec4.wgsl.
/// `data` needs kUsageStorage and room for `count` vec4s.
void FillVec4(gpu::Context& context, const gpu::Buffer& data, uint32_t count);

}  // namespace refract::suites::ceilings
