// CPU models of the conversion, bit, builtin and branch kernels of the ceilings catalog (the
// math models and the WGSL builtins are in alu_catalog_models.cpp).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <limits>

#include "reference/alu_catalog_models.h"
#include "reference/alu_chains.h"
#include "reference/half.h"

namespace refract::reference {
namespace {

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
