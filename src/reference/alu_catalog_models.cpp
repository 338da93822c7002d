#include "reference/alu_catalog_models.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <limits>

#include "reference/half.h"

namespace refract::reference {
namespace {

constexpr uint32_t kChains = 8;  // independent chains of the standard shape
constexpr uint32_t kUnroll = 4;  // the loop body is unrolled 4x: 32 steps an iteration

template <typename T>
using Chains = std::array<T, kChains>;

/// Rounds an exactly computed (or double-precision) result to the kernel's float type: one
/// rounding, as one IEEE operation of that type does. A sum, difference or product of two f16
/// or f32 values is exact in double; a quotient or square root rounded to double first and
/// then to f32 or f16 rounds as the one correctly rounded operation does (their exact results
/// never lie within 2^-53 of a tie of the narrower type unless they are the tie).
using Rounding = float (*)(double);
float RoundToF32(double value) { return static_cast<float>(value); }
float RoundToF16(double value) { return RoundToHalf(value); }

float Add(Rounding round, float a, float b) {
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
double SumChains(const Chains<float>& x) {
  const float sum = ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
  return static_cast<double>(sum);
}

/// The wrapping u32 sum of the chains.
uint32_t WrappingSum(const Chains<uint32_t>& x) {
  uint32_t sum = 0;
  for (uint32_t value : x) sum += value;
  return sum;
}

/// The wrapping i32 sum of the chains.
int32_t WrappingSum(const Chains<int32_t>& x) {
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
float F(uint32_t value) { return static_cast<float>(value); }

// ---- Math ---------------------------------------------------------------------------------------

// Every operand below is a multiple of a power of two with few significant bits, so computing it
// in float and rounding it to f16 is exact: the f16 kernels' f16 arithmetic gives the same value.

/// The starts shared by the sqrt, rsqrt and pow kernels: x_c = 1 + ((idx + 3c) & 31) / 32.
Chains<float> StartsOneToTwo(Rounding round, uint32_t idx) {
  Chains<float> x;
  for (uint32_t c = 0; c < kChains; ++c) x[c] = round(1.0f + F((idx + 3 * c) & 31u) * 0.03125f);
  return x;
}

std::vector<double> DivModel(Rounding round, uint32_t threads, uint32_t iterations) {
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

std::vector<double> PowModel(Rounding round, uint32_t threads, uint32_t iterations) {
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

std::vector<double> SincosModel(Rounding round, uint32_t threads, uint32_t iterations) {
  return PerThread(threads, [&](uint32_t idx) {
    Chains<float> x;
    for (uint32_t c = 0; c < kChains; ++c) x[c] = round(F((idx + 3 * c) & 63u) * 0.015625f);
    return SumChains(Iterate(x, iterations, [&](float v, uint32_t, uint32_t, uint32_t) {
      const float s = round(std::sin(static_cast<double>(v)));
      return round(std::cos(static_cast<double>(s)));
    }));
  });
}

std::vector<double> LogModel(Rounding round, uint32_t threads, uint32_t iterations) {
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

// ---- Integer operands -----------------------------------------------------------------------

/// h_c of the bit kernels: (idx ^ (0x5bd1e995 + c * 0x01010101)) * 0x85ebca6b (wrapping).
uint32_t BitHash(uint32_t idx, uint32_t c) {
  return (idx ^ (0x5bd1e995u + c * 0x01010101u)) * 0x85ebca6bu;
}

/// x_c of the u32 kernels: (idx + c) * 0x9e3779b9 (wrapping).
Chains<uint32_t> U32Starts(uint32_t idx) {
  Chains<uint32_t> x;
  for (uint32_t c = 0; c < kChains; ++c) x[c] = (idx + c) * 0x9e3779b9u;
  return x;
}

/// The bit kernels: x = op(x) combined with k_c (xor or add), k_c = key(BitHash(idx, c)).
template <typename Op, typename Key, typename Combine>
std::vector<double> BitOpModel(uint32_t threads, uint32_t iterations, Op op, Key key,
                               Combine combine) {
  return PerThread(threads, [&](uint32_t idx) {
    Chains<uint32_t> k;
    for (uint32_t c = 0; c < kChains; ++c) k[c] = key(BitHash(idx, c));
    return static_cast<double>(WrappingSum(
        Iterate(U32Starts(idx), iterations,
                [&](uint32_t v, uint32_t, uint32_t, uint32_t c) { return combine(op(v), k[c]); })));
  });
}

uint32_t Xor(uint32_t a, uint32_t b) { return a ^ b; }
uint32_t Plus(uint32_t a, uint32_t b) { return a + b; }
uint32_t Identity(uint32_t h) { return h; }

// ---- Builtins and branches ------------------------------------------------------------------

/// The clamp and minmax kernels' operands: a = 0.5 + (idx & 7) * 3/64,
/// b_c = -0.25 + (((idx >> 3) + 3c) & 15) / 16, x_c = ((idx + 5c) & 15) / 16.
template <typename Bound>
std::vector<double> ClampLikeModel(uint32_t threads, uint32_t iterations, Bound bound) {
  return PerThread(threads, [&](uint32_t idx) {
    const float a = 0.5f + F(idx & 7u) * 0.046875f;
    Chains<float> b, x;
    for (uint32_t c = 0; c < kChains; ++c) {
      b[c] = -0.25f + F(((idx >> 3) + 3 * c) & 15u) * 0.0625f;
      x[c] = F((idx + 5 * c) & 15u) * 0.0625f;
    }
    return SumChains(Iterate(x, iterations, [&](float v, uint32_t, uint32_t, uint32_t c) {
      const float product = v * a;
      return bound(product + b[c]);
    }));
  });
}

/// The branch kernels: a = 0.5 + (idx & 7) / 16, a2 = 1.4375 - a,
/// b_c = 1/16 + (((idx >> 3) + c) & 15) / 16, d_c = b_c / 2, x_c = ((idx + 3c) & 31) / 16.
/// Step k = 8u + c of iteration i is x = x * a + b_c when take_first(idx, i, k), else
/// x = x * a2 + d_c (multiply and add rounded separately).
template <typename Condition>
std::vector<double> BranchModel(uint32_t threads, uint32_t iterations, Condition take_first) {
  return PerThread(threads, [&](uint32_t idx) {
    const float a = 0.5f + F(idx & 7u) * 0.0625f;
    const float a2 = 1.4375f - a;
    Chains<float> b, d, x;
    for (uint32_t c = 0; c < kChains; ++c) {
      b[c] = 0.0625f + F(((idx >> 3) + c) & 15u) * 0.0625f;
      d[c] = b[c] * 0.5f;
      x[c] = F((idx + 3 * c) & 31u) * 0.0625f;
    }
    return SumChains(Iterate(x, iterations, [&](float v, uint32_t i, uint32_t u, uint32_t c) {
      if (take_first(idx, i, kChains * u + c)) {
        const float product = v * a;
        return product + b[c];
      }
      const float product = v * a2;
      return product + d[c];
    }));
  });
}

}  // namespace

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

std::vector<double> F32DivModel(uint32_t threads, uint32_t iterations) {
  return DivModel(RoundToF32, threads, iterations);
}
std::vector<double> F16DivModel(uint32_t threads, uint32_t iterations) {
  return DivModel(RoundToF16, threads, iterations);
}

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

std::vector<double> F32SqrtModel(uint32_t threads, uint32_t iterations) {
  return UnaryPlusBModel(RoundToF32, threads, iterations, Sqrt);
}
std::vector<double> F16SqrtModel(uint32_t threads, uint32_t iterations) {
  return UnaryPlusBModel(RoundToF16, threads, iterations, Sqrt);
}
std::vector<double> F32RsqrtModel(uint32_t threads, uint32_t iterations) {
  return UnaryPlusBModel(RoundToF32, threads, iterations, InverseSqrt);
}
std::vector<double> F16RsqrtModel(uint32_t threads, uint32_t iterations) {
  return UnaryPlusBModel(RoundToF16, threads, iterations, InverseSqrt);
}
std::vector<double> F32PowModel(uint32_t threads, uint32_t iterations) {
  return PowModel(RoundToF32, threads, iterations);
}
std::vector<double> F16PowModel(uint32_t threads, uint32_t iterations) {
  return PowModel(RoundToF16, threads, iterations);
}
std::vector<double> F32SincosModel(uint32_t threads, uint32_t iterations) {
  return SincosModel(RoundToF32, threads, iterations);
}
std::vector<double> F16SincosModel(uint32_t threads, uint32_t iterations) {
  return SincosModel(RoundToF16, threads, iterations);
}
std::vector<double> F32LogModel(uint32_t threads, uint32_t iterations) {
  return LogModel(RoundToF32, threads, iterations);
}
std::vector<double> F16LogModel(uint32_t threads, uint32_t iterations) {
  return LogModel(RoundToF16, threads, iterations);
}

// ---- Conversions and bits ---------------------------------------------------------------------

std::vector<double> U32PackUnpackModel(uint32_t threads, uint32_t iterations) {
  return PerThread(threads, [&](uint32_t idx) {
    return static_cast<double>(WrappingSum(
        Iterate(U32Starts(idx), iterations,
                [](uint32_t v, uint32_t, uint32_t, uint32_t) { return BumpBytes(v); })));
  });
}

std::vector<double> I32F32ConvertModel(uint32_t threads, uint32_t iterations) {
  return PerThread(threads, [&](uint32_t idx) {
    const float a = 0.5f + F(idx & 3u) * 0.0625f;
    Chains<float> b;
    Chains<int32_t> x;
    for (uint32_t c = 0; c < kChains; ++c) {
      b[c] = F(((idx >> 2) + 3 * c) & 15u) - 7.75f;
      x[c] = static_cast<int32_t>((idx + 11 * c) & 63u) - 32;
    }
    return static_cast<double>(
        WrappingSum(Iterate(x, iterations, [&](int32_t v, uint32_t, uint32_t, uint32_t c) {
          // Exact: |v| < 64 and a, b are multiples of 1/16, so neither rounding nor fusing
          // changes the value that i32() truncates toward zero.
          return static_cast<int32_t>(static_cast<float>(v) * a + b[c]);
        })));
  });
}

std::vector<double> F32F16ConvertModel(uint32_t threads, uint32_t iterations) {
  using Vec2 = std::array<float, 2>;
  return PerThread(threads, [&](uint32_t idx) {
    const Vec2 a = {0.5f + F(idx & 7u) * 0.03125f, 0.5625f + F((idx >> 3) & 7u) * 0.03125f};
    Chains<Vec2> b, x;
    for (uint32_t c = 0; c < kChains; ++c) {
      b[c] = {0.25f + F((idx + c) & 15u) * 0.0625f, 0.375f + F((idx + 2 * c) & 7u) * 0.125f};
      x[c] = {1.0f + F((idx + 3 * c) & 31u) * 0.03125f, 0.5f + F((idx + 5 * c) & 31u) * 0.0625f};
    }
    x = Iterate(x, iterations, [&](const Vec2& v, uint32_t, uint32_t, uint32_t c) {
      // One f16 ULP up in each lane (the kernel's guard against folding the round trip).
      const Vec2 h = Unpack2x16Float(Pack2x16Float(v) + 0x00010001u);
      Vec2 next;
      for (size_t lane = 0; lane < 2; ++lane) {
        const float product = h[lane] * a[lane];
        next[lane] = product + b[c][lane];
      }
      return next;
    });
    Vec2 sum;
    for (size_t lane = 0; lane < 2; ++lane) {
      sum[lane] = ((x[0][lane] + x[1][lane]) + (x[2][lane] + x[3][lane])) +
                  ((x[4][lane] + x[5][lane]) + (x[6][lane] + x[7][lane]));
    }
    return static_cast<double>(sum[0] + sum[1]);
  });
}

std::vector<double> U32ShiftModel(uint32_t threads, uint32_t iterations) {
  return PerThread(threads, [&](uint32_t idx) {
    Chains<uint32_t> k;
    for (uint32_t c = 0; c < kChains; ++c) k[c] = BitHash(idx, c);
    return static_cast<double>(WrappingSum(
        Iterate(U32Starts(idx), iterations, [&](uint32_t v, uint32_t i, uint32_t u, uint32_t c) {
          const uint32_t amount = (i + kChains * u + c) & 31u;
          return (c % 2 == 0 ? ShiftLeft(v, amount) : ShiftRight(v, amount)) ^ k[c];
        })));
  });
}

std::vector<double> U32CountOneBitsModel(uint32_t threads, uint32_t iterations) {
  return BitOpModel(threads, iterations, CountOneBits, Identity, Xor);
}

std::vector<double> U32FirstLeadingBitModel(uint32_t threads, uint32_t iterations) {
  return BitOpModel(
      threads, iterations, FirstLeadingBit, [](uint32_t h) { return h >> (h & 31u); }, Xor);
}

std::vector<double> U32ReverseBitsModel(uint32_t threads, uint32_t iterations) {
  return BitOpModel(threads, iterations, ReverseBits, Identity, Plus);
}

// ---- Builtins ---------------------------------------------------------------------------------

std::vector<double> F32FmaBuiltinModel(uint32_t threads, uint32_t iterations) {
  return PerThread(threads, [&](uint32_t idx) {
    const float a = 0.5f + F(idx & 7u) * 0.0625f;
    Chains<float> b, x;
    for (uint32_t c = 0; c < kChains; ++c) {
      b[c] = 0.0625f + F(((idx >> 3) + c) & 15u) * 0.0625f;
      x[c] = F((idx + 3 * c) & 31u) * 0.0625f;
    }
    return SumChains(Iterate(x, iterations, [&](float v, uint32_t, uint32_t, uint32_t c) {
      return std::fma(v, a, b[c]);
    }));
  });
}

std::vector<double> F32SelectModel(uint32_t threads, uint32_t iterations) {
  return PerThread(threads, [&](uint32_t idx) {
    Chains<float> a, b, x;
    for (uint32_t c = 0; c < kChains; ++c) {
      a[c] = 0.25f + F((idx + c) & 7u) * 0.03125f;
      b[c] = 0.125f + F(((idx >> 3) + c) & 7u) * 0.03125f;
      x[c] = 0.5f + F((idx + 3 * c) & 31u) * 0.03125f;
    }
    return SumChains(Iterate(x, iterations, [&](float v, uint32_t, uint32_t, uint32_t c) {
      return v > 1.0f ? v - a[c] : v + b[c];  // select(f, t, cond) is cond ? t : f
    }));
  });
}

std::vector<double> F32ClampModel(uint32_t threads, uint32_t iterations) {
  // WGSL clamp(e, low, high) = min(max(e, low), high).
  return ClampLikeModel(threads, iterations,
                        [](float v) { return std::min(std::max(v, 0.0f), 1.0f); });
}

std::vector<double> F32MinMaxModel(uint32_t threads, uint32_t iterations) {
  return ClampLikeModel(threads, iterations,
                        [](float v) { return std::max(std::min(v, 1.0f), 0.0f); });
}

// ---- Branches ---------------------------------------------------------------------------------

std::vector<double> BranchNoneModel(uint32_t threads, uint32_t iterations) {
  return BranchModel(threads, iterations, [](uint32_t, uint32_t, uint32_t) { return true; });
}

std::vector<double> BranchUniformModel(uint32_t threads, uint32_t iterations) {
  return BranchModel(threads, iterations,
                     [](uint32_t, uint32_t i, uint32_t k) { return ((i + k) & 1u) == 0; });
}

std::vector<double> BranchCoherentModel(uint32_t threads, uint32_t iterations) {
  return BranchModel(threads, iterations, [](uint32_t idx, uint32_t i, uint32_t k) {
    return (((idx / 64) + i + k) & 1u) == 0;
  });
}

std::vector<double> BranchDivergentModel(uint32_t threads, uint32_t iterations) {
  return BranchModel(threads, iterations, [](uint32_t idx, uint32_t i, uint32_t k) {
    return ((idx + i + k) & 1u) == 0;
  });
}

}  // namespace refract::reference
