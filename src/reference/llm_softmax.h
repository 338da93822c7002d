// CPU model of the row-wise softmax (seed 003 §8), in double precision.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/verification.h"

namespace refract::reference {

/// out[r, i] = exp(x[r, i] − max_r) / Σ_j exp(x[r, j] − max_r) for `rows` rows of `row_size`.
std::vector<float> Softmax(std::span<const float> x, uint32_t rows, uint32_t row_size);

/// The GPU computes exp(x − max) in f32: the subtraction and exp's argument scaling round by an
/// ulp of |x − max| (≤ ~2e-5 at logits of 100), a relative error of that size in every output,
/// and its f32 row sums add ~1e-6. relative 1e-4 covers both; absolute 1e-6 × the largest output
/// admits values flushed to zero below f32's normal range. Without the max subtraction, logits
/// near 100 overflow to inf and NaN, which never passes.
inline constexpr double kSoftmaxRelTolerance = 1e-4;
inline constexpr double kSoftmaxFlushTolerance = 1e-6;

/// {absolute = kSoftmaxFlushTolerance × MaxMagnitude(reference), relative = kSoftmaxRelTolerance}.
Tolerance SoftmaxTolerance(std::span<const float> reference_output);

}  // namespace refract::reference
