// CPU models of the normalisations (seed 003 §4, §5) and the fused residual add + RMSNorm, in
// double precision. Rows are [rows, hidden] row-major f32; weight and bias are [hidden].
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/verification.h"

namespace refract::reference {

/// One normalisation problem.
struct NormShape {
  uint32_t rows = 1;    ///< T
  uint32_t hidden = 1;  ///< D
  float eps = 1e-6f;    ///< added to the mean square (RMSNorm) or variance (LayerNorm)
};

/// y[t, d] = x[t, d] / sqrt(mean_d(x[t, :]²) + eps) · weight[d].
std::vector<float> RmsNorm(const NormShape& shape, std::span<const float> x,
                           std::span<const float> weight);

/// y[t, d] = (x[t, d] − mean) / sqrt(var + eps) · weight[d] + bias[d], var the population
/// variance (divided by D).
std::vector<float> LayerNorm(const NormShape& shape, std::span<const float> x,
                             std::span<const float> weight, std::span<const float> bias);

/// The fused residual add: h = a + b (each sum rounded to f32, as the GPU stores it) and
/// y = RmsNorm(h).
struct AddRmsNormResult {
  std::vector<float> h;
  std::vector<float> y;
};
AddRmsNormResult AddRmsNorm(const NormShape& shape, std::span<const float> a,
                            std::span<const float> b, std::span<const float> weight);

/// The GPU sums D ≤ a few thousand squares (or deviations) in f32, a relative error of the mean
/// square of ~1e-6 with tree sums (the seed's strided partials add a few more ulp), and its
/// sqrt/rsqrt and division are within a few ulp: outputs are within ~1e-5 of their magnitude.
/// 5e-5 of the largest output leaves margin; a dropped element or a wrong eps moves more.
inline constexpr double kNormRelTolerance = 5e-5;

/// absolute = kNormRelTolerance × MaxMagnitude(reference output) (rows are normalised, so every
/// row has the same scale).
Tolerance NormTolerance(std::span<const float> reference_output);

}  // namespace refract::reference
