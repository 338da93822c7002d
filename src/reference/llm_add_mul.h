// CPU models of the element-wise add and mul (seed 003 §11, §12): output[i] = a[i] + b[i] and
// output[i] = a[i] × b[i].
#pragma once

#include <span>
#include <vector>

#include "base/verification.h"

namespace refract::reference {

/// One correctly rounded f32 add or multiply per element (Vulkan requires both to be correctly
/// rounded; the suite's inputs are normal numbers whose products stay normal): exact.
inline constexpr Tolerance kAddMulTolerance{};

/// a[i] + b[i] in f32 (sizes must agree).
std::vector<float> Add(std::span<const float> a, std::span<const float> b);
/// a[i] × b[i] in f32 (sizes must agree).
std::vector<float> Mul(std::span<const float> a, std::span<const float> b);

}  // namespace refract::reference
