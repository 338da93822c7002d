// Internal to src/reference/: the shape every raw-ALU kernel model shares — 8 independent
// chains, the loop body unrolled 4x (32 steps an iteration), one output a thread — and the
// roundings of its f32 and f16 arithmetic. Used by the alu_*_models.cpp files.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "reference/half.h"
#include "reference/precision.h"

namespace refract::reference {

inline constexpr uint32_t kChains = 8;  // independent chains of the standard shape
inline constexpr uint32_t kUnroll = 4;  // the loop body is unrolled 4x: 32 steps an iteration

template <typename T>
using Chains = std::array<T, kChains>;

/// Rounds an exactly computed (or double-precision) result to the kernel's float type: one
/// rounding, as one IEEE operation of that type does. A sum, difference or product of two f16
/// or f32 values is exact in double; a quotient or square root rounded to double first and
/// then to f32 or f16 rounds as the one correctly rounded operation does (their exact results
/// never lie within 2^-53 of a tie of the narrower type unless they are the tie).
using Rounding = float (*)(double);
inline float RoundToF32(double value) { return static_cast<float>(value); }
inline float RoundToF16(double value) { return RoundToHalf(value); }
inline Rounding RoundingOf(Precision precision) {
  return precision == Precision::kF16 ? RoundToF16 : RoundToF32;
}

inline float Add(Rounding round, float a, float b) {
  return round(static_cast<double>(a) + static_cast<double>(b));
}

/// Runs `iterations` iterations of the 32 steps: step(x, i, u, c) gives chain c's next value
/// at iteration i, unrolled step u (the kernels' program order; chains are independent).
template <typename T, typename Step>
Chains<T> Iterate(Chains<T> x, uint32_t iterations, Step step) {
  for (uint32_t i = 0; i < iterations; ++i) {
    for (uint32_t u = 0; u < kUnroll; ++u) {
      for (uint32_t c = 0; c < kChains; ++c) x[c] = step(x[c], i, u, c);
    }
  }
  return x;
}

/// The kernels' f32 output: ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7)) in f32 (f16
/// chains are widened to f32 first, which is exact).
inline double SumChains(const Chains<float>& x) {
  const float sum = ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
  return static_cast<double>(sum);
}

/// The wrapping u32 sum of the chains.
inline uint32_t WrappingSum(const Chains<uint32_t>& x) {
  uint32_t sum = 0;
  for (uint32_t value : x) sum += value;
  return sum;
}

/// The wrapping i32 sum of the chains.
inline int32_t WrappingSum(const Chains<int32_t>& x) {
  uint32_t sum = 0;
  for (int32_t value : x) sum += static_cast<uint32_t>(value);
  return static_cast<int32_t>(sum);
}

/// out[idx] = thread(idx) for idx in [0, threads).
template <typename Thread>
std::vector<double> PerThread(uint32_t threads, Thread thread) {
  std::vector<double> out(threads);
  for (uint32_t idx = 0; idx < threads; ++idx) out[idx] = thread(idx);
  return out;
}

/// f32(v) for a small integer v: exact.
inline float F(uint32_t value) { return static_cast<float>(value); }

}  // namespace refract::reference
