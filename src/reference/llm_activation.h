// CPU models of the activations (seed 003 §9, §10) and the fused SwiGLU combine, in double.
#pragma once

#include <span>
#include <vector>

#include "base/verification.h"

namespace refract::reference {

/// The seed's GELU constants: √(2/π) (rounded as the seed writes it) and the cubic coefficient.
inline constexpr double kGeluSqrt2OverPi = 0.7978845608;
inline constexpr double kGeluCoefficient = 0.044715;

/// y = x / (1 + exp(−x)).
std::vector<float> Silu(std::span<const float> x);
/// y = 0.5 · x · (1 + tanh(√(2/π) · (x + 0.044715 · x³))).
std::vector<float> Gelu(std::span<const float> x);
/// y = silu(gate) · up (the SwiGLU combine).
std::vector<float> SiluMul(std::span<const float> gate, std::span<const float> up);

/// SiLU (and SiLU·mul): exp and the division are within a few ulp in f32, ~1e-6 relative;
/// 1e-5 of the largest output leaves margin.
inline constexpr double kSiluRelTolerance = 1e-5;
/// GELU: Vulkan derives tanh's precision from exp's and fast GPU tanh units are good to ~2^-11
/// relative, so outputs may move by ~5e-4 of x; 1e-3 of the largest output admits that while a
/// dropped cubic term or factor moves outputs by percents.
inline constexpr double kGeluRelTolerance = 1e-3;

/// absolute = rel × MaxMagnitude(reference output).
Tolerance ActivationTolerance(double rel, std::span<const float> reference_output);

}  // namespace refract::reference
