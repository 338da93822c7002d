#include "reference/llm_norm.h"

#include <cmath>

#include "reference/compare.h"

namespace refract::reference {

std::vector<float> RmsNorm(const NormShape& shape, std::span<const float> x,
                           std::span<const float> weight) {
  const size_t d = shape.hidden;
  std::vector<float> y(size_t{shape.rows} * d);
  for (size_t r = 0; r < shape.rows; ++r) {
    const float* row = x.data() + r * d;
    double squares = 0;
    for (size_t i = 0; i < d; ++i) squares += double{row[i]} * row[i];
    const double inv_rms = 1.0 / std::sqrt(squares / static_cast<double>(d) + shape.eps);
    for (size_t i = 0; i < d; ++i) y[r * d + i] = static_cast<float>(row[i] * inv_rms * weight[i]);
  }
  return y;
}

std::vector<float> LayerNorm(const NormShape& shape, std::span<const float> x,
                             std::span<const float> weight, std::span<const float> bias) {
  const size_t d = shape.hidden;
  std::vector<float> y(size_t{shape.rows} * d);
  for (size_t r = 0; r < shape.rows; ++r) {
    const float* row = x.data() + r * d;
    double sum = 0;
    for (size_t i = 0; i < d; ++i) sum += row[i];
    const double mean = sum / static_cast<double>(d);
    double deviations = 0;
    for (size_t i = 0; i < d; ++i) deviations += (row[i] - mean) * (row[i] - mean);
    const double inv_std = 1.0 / std::sqrt(deviations / static_cast<double>(d) + shape.eps);
    for (size_t i = 0; i < d; ++i) {
      y[r * d + i] = static_cast<float>((row[i] - mean) * inv_std * weight[i] + bias[i]);
    }
  }
  return y;
}

AddRmsNormResult AddRmsNorm(const NormShape& shape, std::span<const float> a,
                            std::span<const float> b, std::span<const float> weight) {
  AddRmsNormResult result;
  result.h.resize(a.size());
  for (size_t i = 0; i < a.size(); ++i) result.h[i] = a[i] + b[i];  // f32 sum, as stored
  result.y = RmsNorm(shape, result.h, weight);
  return result;
}

Tolerance NormTolerance(std::span<const float> reference_output) {
  return {.absolute = kNormRelTolerance * MaxMagnitude(reference_output), .relative = 0};
}

}  // namespace refract::reference
