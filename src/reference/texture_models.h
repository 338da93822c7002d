// CPU model of the texture-interpolation kernels (ceil_texture_interp_builtin.wgsl and
// ceil_texture_interp_manual.wgsl).
#pragma once

#include <cstdint>
#include <vector>

namespace refract::reference {

/// The texture both kernels read: 4096×1 rgba32float, texel i = the fill pattern's value i.
inline constexpr uint32_t kInterpTextureWidth = 4096;

/// The texture's texels as floats (4 a texel, row-major).
std::vector<float> InterpTexels();

/// Thread t's folded sums for t < threads after `iterations` samples, each the linear
/// interpolation of texels x0 and x0 + 1 at the position both kernels derive from (t, k).
/// `spread` holds, per thread, Σ over its samples and the 4 lanes of |b − a|: a filter weight
/// off by δ moves the thread's sum by at most δ times it (the builtin row's tolerance scale).
struct InterpModelOutput {
  std::vector<float> sums;
  std::vector<double> spread;
};
InterpModelOutput InterpModel(uint32_t threads, uint32_t iterations);

}  // namespace refract::reference
