#include "reference/alu_core_models.h"

#include <array>
#include <cstddef>

#include "reference/alu_chains.h"
#include "reference/half.h"

namespace refract::reference {
namespace {

// ---- Floating point: one template for f32 (float) and f16 (Half) --------------------------

template <typename T>
T Lit(double value);
template <>
float Lit<float>(double value) {
  return static_cast<float>(value);
}
template <>
Half Lit<Half>(double value) {
  return Half(value);
}

double ToDouble(float value) { return value; }
double ToDouble(Half value) { return value.value(); }

template <typename T>
using Vec4 = std::array<T, 4>;

/// WGSL dot(a, b), evaluated left to right: ((a.x*b.x + a.y*b.y) + a.z*b.z) + a.w*b.w.
template <typename T>
T Dot(const Vec4<T>& a, const Vec4<T>& b) {
  return ((a[0] * b[0] + a[1] * b[1]) + a[2] * b[2]) + a[3] * b[3];
}

/// v.yzwx
template <typename T>
Vec4<T> RotateLeft(const Vec4<T>& v) {
  return {v[1], v[2], v[3], v[0]};
}

/// (v.x + v.y) + (v.z + v.w)
template <typename T>
T HorizontalSum(const Vec4<T>& v) {
  return (v[0] + v[1]) + (v[2] + v[3]);
}

/// Lane j of the kernels' `l`: ((idx + 256 j) & 1023) / 1024, exact in f32 and f16.
template <typename T>
Vec4<T> Lanes(uint32_t idx) {
  Vec4<T> lanes;
  for (uint32_t j = 0; j < 4; ++j) {
    lanes[j] = Lit<T>(static_cast<double>((idx + 256u * j) & 1023u)) * Lit<T>(0x1p-10);
  }
  return lanes;
}

/// Operands of one lane (lane 0 for the scalar kernels) of the x = x * a + b chains.
template <typename T>
struct FmaOperands {
  T a, b, s;
};

// f32: s = ((idx + 256 lane) & 1023) / 1024, a = 1 - 2^-10 - s * 2^-11, b = (s + 0.5) * 2^-10.
FmaOperands<float> F32Operands(uint32_t idx, uint32_t lane) {
  const float s = static_cast<float>((idx + 256u * lane) & 1023u) * 0x1p-10f;
  return {0.9990234375f - s * 0x1p-11f, s * 0x1p-10f + 0x1p-11f, s};
}

// f16: s as for f32, t = ((idx >> 2) + 4 lane) & 15, a = 7/8 - t * 2^-7, b = s / 8 + 1/16.
FmaOperands<Half> F16Operands(uint32_t idx, uint32_t lane) {
  const Half s = Half(static_cast<double>((idx + 256u * lane) & 1023u)) * Half(0x1p-10);
  const Half t = Half(static_cast<double>(((idx >> 2u) + 4u * lane) & 15u));
  return {Half(0.875) - t * Half(0x1p-7), s * Half(0.125) + Half(0.0625), s};
}

/// The 8 chains of one lane: chain k starts at s - 1 + k / 4, steps x = x * a + b (multiply,
/// then add: two roundings) 4 times an iteration; returns the kernel's tree sum of the chains.
template <typename T>
T FmaChainsSum(const FmaOperands<T>& op, uint32_t iterations) {
  std::array<T, kChains> x;
  for (uint32_t k = 0; k < kChains; ++k) x[k] = op.s + Lit<T>(0.25 * k - 1.0);
  const uint64_t steps = uint64_t{iterations} * kUnroll;
  for (uint64_t n = 0; n < steps; ++n) {
    for (T& chain : x) chain = chain * op.a + op.b;
  }
  return ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
}

template <typename T, typename OperandsFn>
std::vector<double> FmaScalar(uint32_t threads, uint32_t iterations, OperandsFn operands) {
  return PerThread(threads, [&](uint32_t idx) {
    return ToDouble(FmaChainsSum<T>(operands(idx, 0), iterations));
  });
}

template <typename T, typename OperandsFn>
std::vector<double> FmaVec4(uint32_t threads, uint32_t iterations, OperandsFn operands) {
  return PerThread(threads, [&](uint32_t idx) {
    Vec4<T> sums;
    for (uint32_t lane = 0; lane < 4; ++lane) {
      sums[lane] = FmaChainsSum<T>(operands(idx, lane), iterations);
    }
    return ToDouble(HorizontalSum(sums));
  });
}

/// x = m * x + c; c = c.yzwx. Column j, row i of m is ((idx + 3 i + 12 j) % 15 + 1) / 128:
/// entries in [1/128, 1/8), row sums below 1/2. x starts at l, c at l.yzwx - 0.5.
template <typename T>
std::vector<double> FmaMat4(uint32_t threads, uint32_t iterations) {
  return PerThread(threads, [&](uint32_t idx) {
    std::array<Vec4<T>, 4> m;  // m[column][row]
    for (uint32_t j = 0; j < 4; ++j) {
      for (uint32_t i = 0; i < 4; ++i) {
        m[j][i] = Lit<T>(static_cast<double>((idx + 3u * i + 12u * j) % 15u + 1u)) * Lit<T>(0x1p-7);
      }
    }
    const Vec4<T> l = Lanes<T>(idx);
    Vec4<T> x = l;
    Vec4<T> c = RotateLeft(l);
    for (T& value : c) value = value - Lit<T>(0.5);
    for (uint32_t n = 0; n < iterations; ++n) {
      Vec4<T> next;
      for (int i = 0; i < 4; ++i) {
        next[i] = (((m[0][i] * x[0] + m[1][i] * x[1]) + m[2][i] * x[2]) + m[3][i] * x[3]) + c[i];
      }
      x = next;
      c = RotateLeft(c);
    }
    return ToDouble(HorizontalSum(x));
  });
}

/// o[k] = dot(w[k][0], x0) + dot(w[k][1], x1) + c[k]; x1 = x0; x0 = o; c = c.yzwx. Lane i of
/// w[k][h] is ((idx + 24 k + 12 h + 3 i) % 7 + 1) / 128: entries in [1/128, 1/16), row sums
/// below 1/2. x0 starts at l, x1 at l.wzyx - 0.5, c at l.yzwx - 0.5.
template <typename T>
std::vector<double> FmaMatvec(uint32_t threads, uint32_t iterations) {
  return PerThread(threads, [&](uint32_t idx) {
    std::array<std::array<Vec4<T>, 2>, 4> w;
    for (uint32_t k = 0; k < 4; ++k) {
      for (uint32_t h = 0; h < 2; ++h) {
        for (uint32_t i = 0; i < 4; ++i) {
          w[k][h][i] = Lit<T>(static_cast<double>((idx + 24u * k + 12u * h + 3u * i) % 7u + 1u)) *
                       Lit<T>(0x1p-7);
        }
      }
    }
    const Vec4<T> l = Lanes<T>(idx);
    const T half = Lit<T>(0.5);
    Vec4<T> x0 = l;
    Vec4<T> x1 = {l[3] - half, l[2] - half, l[1] - half, l[0] - half};
    Vec4<T> c = {l[1] - half, l[2] - half, l[3] - half, l[0] - half};
    for (uint32_t n = 0; n < iterations; ++n) {
      Vec4<T> o;
      for (int k = 0; k < 4; ++k) o[k] = (Dot(w[k][0], x0) + Dot(w[k][1], x1)) + c[k];
      x1 = x0;
      x0 = o;
      c = RotateLeft(c);
    }
    return ToDouble(HorizontalSum(x0) + HorizontalSum(x1));
  });
}

// ---- Integers: uint32_t arithmetic wraps exactly as WGSL i32/u32 does ----------------------

uint32_t Operand(uint32_t idx, uint32_t n) { return OperandHash(idx * 64u + n); }

double AsI32(uint32_t bits) { return static_cast<double>(static_cast<int32_t>(bits)); }

/// WGSL unpack4xI8: lane i is the sign-extended byte i.
std::array<int32_t, 4> UnpackI8(uint32_t packed) {
  std::array<int32_t, 4> lanes;
  for (int i = 0; i < 4; ++i) {
    lanes[i] = static_cast<int8_t>(static_cast<uint8_t>(packed >> (8 * i)));
  }
  return lanes;
}

/// WGSL pack4xI8: the low 8 bits of each lane, lane i into byte i.
uint32_t PackI8(const std::array<int32_t, 4>& lanes) {
  uint32_t packed = 0;
  for (int i = 0; i < 4; ++i) packed |= (static_cast<uint32_t>(lanes[i]) & 0xFFu) << (8 * i);
  return packed;
}

/// The dp4a kernels' 8 accumulators of thread `idx`: acc += dot(a, b), then a ^= acc, each
/// iteration; returns their wrapping u32 sum.
template <typename Dot>
uint32_t Dp4aChainsSum(uint32_t idx, uint32_t iterations, Dot dot) {
  uint32_t sum = 0;
  for (uint32_t k = 0; k < kChains; ++k) {
    uint32_t a = Operand(idx, k);
    const uint32_t b = Operand(idx, 8 + k);
    uint32_t acc = Operand(idx, 16 + k);
    for (uint32_t n = 0; n < iterations; ++n) {
      acc += dot(a, b);
      a ^= acc;
    }
    sum += acc;
  }
  return sum;
}

}  // namespace

uint32_t OperandHash(uint32_t value) {
  uint32_t h = value * 0x9e3779b9u;
  h ^= h >> 16u;
  h *= 0x85ebca6bu;
  h ^= h >> 13u;
  return h;
}

int32_t Dot4I8Packed(uint32_t a, uint32_t b) {
  const std::array<int32_t, 4> la = UnpackI8(a);
  const std::array<int32_t, 4> lb = UnpackI8(b);
  int32_t sum = 0;  // at most 4 * 128 * 128: no overflow
  for (int i = 0; i < 4; ++i) sum += la[i] * lb[i];
  return sum;
}

uint32_t Dot4U8Packed(uint32_t a, uint32_t b) {
  uint32_t sum = 0;
  for (int i = 0; i < 4; ++i) sum += ((a >> (8 * i)) & 0xFFu) * ((b >> (8 * i)) & 0xFFu);
  return sum;
}

std::vector<double> FmaScalarModel(Precision precision, uint32_t threads, uint32_t iterations) {
  return precision == Precision::kF16 ? FmaScalar<Half>(threads, iterations, F16Operands)
                                      : FmaScalar<float>(threads, iterations, F32Operands);
}
std::vector<double> FmaVec4Model(Precision precision, uint32_t threads, uint32_t iterations) {
  return precision == Precision::kF16 ? FmaVec4<Half>(threads, iterations, F16Operands)
                                      : FmaVec4<float>(threads, iterations, F32Operands);
}
std::vector<double> FmaMat4Model(Precision precision, uint32_t threads, uint32_t iterations) {
  return precision == Precision::kF16 ? FmaMat4<Half>(threads, iterations)
                                      : FmaMat4<float>(threads, iterations);
}
std::vector<double> FmaMatvecModel(Precision precision, uint32_t threads, uint32_t iterations) {
  return precision == Precision::kF16 ? FmaMatvec<Half>(threads, iterations)
                                      : FmaMatvec<float>(threads, iterations);
}

std::vector<double> I32MadScalarModel(uint32_t threads, uint32_t iterations) {
  return PerThread(threads, [&](uint32_t idx) {
    const uint32_t a = Operand(idx, 0) | 1u;
    const uint32_t b = Operand(idx, 1);
    std::array<uint32_t, kChains> x;
    for (uint32_t k = 0; k < kChains; ++k) x[k] = Operand(idx, 2 + k);
    const uint64_t steps = uint64_t{iterations} * kUnroll;
    for (uint64_t n = 0; n < steps; ++n) {
      for (uint32_t& chain : x) chain = chain * a + b;
    }
    uint32_t sum = 0;
    for (uint32_t chain : x) sum += chain;
    return AsI32(sum);
  });
}

std::vector<double> I32MadVec4Model(uint32_t threads, uint32_t iterations) {
  return PerThread(threads, [&](uint32_t idx) {
    uint32_t sum = 0;
    for (uint32_t lane = 0; lane < 4; ++lane) {
      const uint32_t a = Operand(idx, lane) | 1u;
      const uint32_t b = Operand(idx, 4 + lane);
      for (uint32_t k = 0; k < kChains; ++k) {
        uint32_t x = Operand(idx, 8 + 4 * k + lane);
        const uint64_t steps = uint64_t{iterations} * kUnroll;
        for (uint64_t n = 0; n < steps; ++n) x = x * a + b;
        sum += x;
      }
    }
    return AsI32(sum);
  });
}

std::vector<double> I32MadMat4Model(uint32_t threads, uint32_t iterations) {
  return PerThread(threads, [&](uint32_t idx) {
    std::array<std::array<uint32_t, 4>, 4> r;  // r[row][lane]
    std::array<uint32_t, 4> x;
    std::array<uint32_t, 4> c;
    for (uint32_t j = 0; j < 4; ++j) {
      for (uint32_t i = 0; i < 4; ++i) r[i][j] = Operand(idx, 4 * i + j);
      x[j] = Operand(idx, 16 + j);
      c[j] = Operand(idx, 20 + j);
    }
    for (uint32_t n = 0; n < iterations; ++n) {
      std::array<uint32_t, 4> next;
      for (int i = 0; i < 4; ++i) {
        next[i] = r[i][0] * x[0] + r[i][1] * x[1] + r[i][2] * x[2] + r[i][3] * x[3] + c[i];
      }
      x = next;
      c = {c[1], c[2], c[3], c[0]};
    }
    return AsI32(x[0] + x[1] + x[2] + x[3]);
  });
}

std::vector<double> I8MatvecModel(uint32_t threads, uint32_t iterations) {
  return PerThread(threads, [&](uint32_t idx) {
    std::array<std::array<uint32_t, 2>, 4> w;  // packed int8 weights, w[row][half]
    for (uint32_t k = 0; k < 4; ++k) {
      for (uint32_t h = 0; h < 2; ++h) w[k][h] = Operand(idx, 2 * k + h);
    }
    uint32_t x0 = Operand(idx, 8);
    uint32_t x1 = Operand(idx, 9);
    std::array<int32_t, 4> c = UnpackI8(Operand(idx, 10));
    for (uint32_t n = 0; n < iterations; ++n) {
      std::array<int32_t, 4> shifted;
      for (int k = 0; k < 4; ++k) {
        // |o| < 2^17: no wrapping can happen, plain int32 arithmetic is exact.
        const int32_t o = Dot4I8Packed(w[k][0], x0) + Dot4I8Packed(w[k][1], x1) + c[k];
        shifted[k] = o >> 4;  // arithmetic shift (C++20)
      }
      x1 = x0;
      x0 = PackI8(shifted);
      c = {c[1], c[2], c[3], c[0]};
    }
    int32_t sum = 0;
    for (int32_t lane : UnpackI8(x0)) sum += lane;
    for (int32_t lane : UnpackI8(x1)) sum += lane;
    return sum;
  });
}

std::vector<double> I8Dp4aModel(uint32_t threads, uint32_t iterations) {
  return PerThread(threads, [&](uint32_t idx) {
    return AsI32(Dp4aChainsSum(idx, iterations, [](uint32_t a, uint32_t b) {
      return static_cast<uint32_t>(Dot4I8Packed(a, b));  // the bits of an i32; adds wrap
    }));
  });
}

std::vector<double> U8Dp4aModel(uint32_t threads, uint32_t iterations) {
  return PerThread(threads, [&](uint32_t idx) {
    return static_cast<double>(Dp4aChainsSum(idx, iterations, Dot4U8Packed));
  });
}

}  // namespace refract::reference
