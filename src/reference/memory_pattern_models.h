// CPU models of the memory-pattern kernels (ceil_read_gather.wgsl, ceil_write_scatter.wgsl) over
// windows filled with the fill pattern (reference/fill_pattern.h).
#pragma once

#include <cstdint>
#include <vector>

namespace refract::reference {

/// ceil_read_gather.wgsl: thread t's output for t < threads, with `loads` LCG-indexed loads each
/// within a window of `window_vec4s` (a power of two) vec4s of the fill pattern.
std::vector<float> GatherModel(uint32_t threads, uint32_t loads, uint32_t window_vec4s);

/// ceil_write_scatter.wgsl: the window of `window_vec4s` vec4s (4 floats each) after every i
/// was stored as vec4(f32(i)) at (i × 2654435761 + 1013904223) & (window_vec4s − 1).
/// window_vec4s must be a power of two ≤ 2^24 (then every f32(i) is exact and the hash is a
/// permutation; throws refract::Error otherwise).
std::vector<float> ScatterModel(uint32_t window_vec4s);

}  // namespace refract::reference
