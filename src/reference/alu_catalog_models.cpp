#include "reference/alu_catalog_models.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <limits>

#include "reference/alu_chains.h"
#include "reference/half.h"

namespace refract::reference {
namespace {

// ---- Math ---------------------------------------------------------------------------------------

// Every operand below is a multiple of a power of two with few significant bits, so computing it
// in float and rounding it to f16 is exact: the f16 kernels' f16 arithmetic gives the same value.

/// The starts shared by the sqrt, rsqrt and pow kernels: x_c = 1 + ((idx + 3c) & 31) / 32.
Chains<float> StartsOneToTwo(Rounding round, uint32_t idx) {
  Chains<float> x;
  for (uint32_t c = 0; c < kChains; ++c) x[c] = round(1.0f + F((idx + 3 * c) & 31u) * 0.03125f);
  return x;
}

}  // namespace

std::vector<double> DivModel(Precision precision, uint32_t threads, uint32_t iterations) {
  const Rounding round = RoundingOf(precision);
  return PerThread(threads, [&](uint32_t idx) {
    const float a = round(0.25f + F(idx & 15u) * 0.03125f);
    const float b = round(1.0f + F((idx >> 4) & 7u) * 0.0625f);
    Chains<float> bc, x;
    for (uint32_t c = 0; c < kChains; ++c) {
      bc[c] = round(b + F(c) * 0.125f);
      x[c] = round(1.0f + F((idx + 5 * c) & 31u) * 0.03125f);
    }
    return SumChains(Iterate(x, iterations, [&](float v, uint32_t, uint32_t, uint32_t c) {
      return Add(round, round(static_cast<double>(a) / static_cast<double>(v)), bc[c]);
    }));
  });
}

namespace {

/// The sqrt and rsqrt kernels: x = f(x) + b_c, b_c = 1 + ((idx + c) & 15) / 16.
template <typename Function>
std::vector<double> UnaryPlusBModel(Rounding round, uint32_t threads, uint32_t iterations,
                                    Function function) {
  return PerThread(threads, [&](uint32_t idx) {
    Chains<float> b;
    for (uint32_t c = 0; c < kChains; ++c) b[c] = round(1.0f + F((idx + c) & 15u) * 0.0625f);
    return SumChains(Iterate(StartsOneToTwo(round, idx), iterations,
                             [&](float v, uint32_t, uint32_t, uint32_t c) {
                               return Add(round, round(function(static_cast<double>(v))), b[c]);
                             }));
  });
}

double Sqrt(double x) { return std::sqrt(x); }
double InverseSqrt(double x) { return 1.0 / std::sqrt(x); }

}  // namespace

std::vector<double> SqrtModel(Precision precision, uint32_t threads, uint32_t iterations) {
  return UnaryPlusBModel(RoundingOf(precision), threads, iterations, Sqrt);
}

std::vector<double> RsqrtModel(Precision precision, uint32_t threads, uint32_t iterations) {
  return UnaryPlusBModel(RoundingOf(precision), threads, iterations, InverseSqrt);
}

std::vector<double> PowModel(Precision precision, uint32_t threads, uint32_t iterations) {
  const Rounding round = RoundingOf(precision);
  return PerThread(threads, [&](uint32_t idx) {
    const double e = round(0.40625f + F(idx & 7u) * 0.03125f);
    Chains<float> b;
    for (uint32_t c = 0; c < kChains; ++c) {
      b[c] = round(1.0f + F(((idx >> 3) + c) & 15u) * 0.0625f);
    }
    return SumChains(Iterate(StartsOneToTwo(round, idx), iterations,
                             [&](float v, uint32_t, uint32_t, uint32_t c) {
                               return Add(round, round(std::pow(static_cast<double>(v), e)), b[c]);
                             }));
  });
}

std::vector<double> SincosModel(Precision precision, uint32_t threads, uint32_t iterations) {
  const Rounding round = RoundingOf(precision);
  return PerThread(threads, [&](uint32_t idx) {
    Chains<float> x;
    for (uint32_t c = 0; c < kChains; ++c) x[c] = round(F((idx + 3 * c) & 63u) * 0.015625f);
    return SumChains(Iterate(x, iterations, [&](float v, uint32_t, uint32_t, uint32_t) {
      const float s = round(std::sin(static_cast<double>(v)));
      return round(std::cos(static_cast<double>(s)));
    }));
  });
}

std::vector<double> LogModel(Precision precision, uint32_t threads, uint32_t iterations) {
  const Rounding round = RoundingOf(precision);
  return PerThread(threads, [&](uint32_t idx) {
    Chains<float> b, x;
    for (uint32_t c = 0; c < kChains; ++c) {
      b[c] = round(10.0f + F((idx + 5 * c) & 31u) * 0.1875f);
      x[c] = round(10.0f + F((idx + 3 * c) & 15u) * 0.5f);
    }
    return SumChains(Iterate(x, iterations, [&](float v, uint32_t, uint32_t, uint32_t c) {
      return Add(round, round(std::log(static_cast<double>(v))), b[c]);
    }));
  });
}

// ---- WGSL builtins ----------------------------------------------------------------------------

uint32_t CountOneBits(uint32_t x) { return static_cast<uint32_t>(std::popcount(x)); }

uint32_t FirstLeadingBit(uint32_t x) {
  if (x == 0) return 0xFFFFFFFFu;
  return 31u - static_cast<uint32_t>(std::countl_zero(x));
}

uint32_t ReverseBits(uint32_t x) {
  uint32_t reversed = 0;
  for (int bit = 0; bit < 32; ++bit) {
    reversed = (reversed << 1) | (x & 1u);
    x >>= 1;
  }
  return reversed;
}

int32_t DivideI32(int32_t x, int32_t y) {
  if (y == 0) return x;
  if (x == std::numeric_limits<int32_t>::min() && y == -1) return x;
  return x / y;  // C++ truncates toward zero, as WGSL does
}

uint32_t ShiftLeft(uint32_t x, uint32_t n) { return x << (n & 31u); }
uint32_t ShiftRight(uint32_t x, uint32_t n) { return x >> (n & 31u); }

uint32_t Pack2x16Float(std::array<float, 2> lanes) {
  return uint32_t{HalfBits(lanes[0])} | (uint32_t{HalfBits(lanes[1])} << 16);
}

std::array<float, 2> Unpack2x16Float(uint32_t packed) {
  return {HalfFromBits(static_cast<uint16_t>(packed & 0xFFFFu)),
          HalfFromBits(static_cast<uint16_t>(packed >> 16))};
}

uint32_t BumpBytes(uint32_t x) {
  const uint32_t b0 = x & 0xFFu;
  const uint32_t b1 = (x >> 8) & 0xFFu;
  const uint32_t b2 = (x >> 16) & 0xFFu;
  const uint32_t b3 = x >> 24;
  return (((b0 + 1u) & 0xFFu) << 8) | (((b1 + 1u) & 0xFFu) << 16) | (((b2 + 1u) & 0xFFu) << 24) |
         ((b3 + 1u) & 0xFFu);
}

// ---- Math -------------------------------------------------------------------------------------

std::vector<double> I32DivModel(uint32_t threads, uint32_t iterations) {
  return PerThread(threads, [&](uint32_t idx) {
    const int32_t a = 2 + static_cast<int32_t>(idx & 3u);
    const int32_t b = static_cast<int32_t>((idx >> 2) & 31u) - 16;
    Chains<int32_t> bc, x;
    for (uint32_t c = 0; c < kChains; ++c) {
      bc[c] = b + 3 * static_cast<int32_t>(c) - 10;
      x[c] = static_cast<int32_t>((idx * 7u + 13u * c) & 255u) - 128;
    }
    return static_cast<double>(
        WrappingSum(Iterate(x, iterations, [&](int32_t v, uint32_t, uint32_t, uint32_t c) {
          return DivideI32(v, a) + bc[c];
        })));
  });
}

}  // namespace refract::reference
