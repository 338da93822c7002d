#include "reference/llm_activation.h"

#include <cmath>

#include "reference/compare.h"

namespace refract::reference {
namespace {

double SiluOf(double x) { return x / (1.0 + std::exp(-x)); }

}  // namespace

std::vector<float> Silu(std::span<const float> x) {
  std::vector<float> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = static_cast<float>(SiluOf(x[i]));
  return y;
}

std::vector<float> Gelu(std::span<const float> x) {
  std::vector<float> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double v = x[i];
    const double inner = kGeluSqrt2OverPi * (v + kGeluCoefficient * v * v * v);
    y[i] = static_cast<float>(0.5 * v * (1.0 + std::tanh(inner)));
  }
  return y;
}

std::vector<float> SiluMul(std::span<const float> gate, std::span<const float> up) {
  std::vector<float> y(gate.size());
  for (size_t i = 0; i < gate.size(); ++i) y[i] = static_cast<float>(SiluOf(gate[i]) * up[i]);
  return y;
}

Tolerance ActivationTolerance(double rel, std::span<const float> reference_output) {
  return {.absolute = rel * MaxMagnitude(reference_output), .relative = 0};
}

}  // namespace refract::reference
