// The CPU models of the core raw-ALU rows and the f16 rounding helper, checked against values
// derived by hand (or in double precision from the kernels' formulas), not against themselves.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "reference/alu_core_models.h"
#include "reference/half.h"

namespace refract::reference {
namespace {

// ---- half.h ----------------------------------------------------------------------------------

TEST(ReferenceHalfTest, RoundsTiesToEven) {
  EXPECT_EQ(RoundToHalf(1.0 + 0x1p-11), 1.0f);                       // halfway to 1 + 2^-10: even
  EXPECT_EQ(RoundToHalf(1.0 + 3 * 0x1p-11), 1.0f + 0x1p-9f);         // halfway, rounds up to even
  EXPECT_EQ(RoundToHalf(1.0 + 0x1p-11 + 0x1p-20), 1.0f + 0x1p-10f);  // above halfway
  EXPECT_EQ(RoundToHalf(2049.0), 2048.0f);
  EXPECT_EQ(RoundToHalf(2051.0), 2052.0f);
  EXPECT_EQ(RoundToHalf(-2051.0), -2052.0f);
  EXPECT_EQ(RoundToHalf(1.0 / 3.0), 0x1.554p-2f);
}

TEST(ReferenceHalfTest, HandlesTheEndsOfTheRange) {
  EXPECT_EQ(RoundToHalf(65504.0), 65504.0f);  // the largest finite f16
  EXPECT_EQ(RoundToHalf(65519.0), 65504.0f);
  EXPECT_EQ(RoundToHalf(65520.0), std::numeric_limits<float>::infinity());  // ties to 2^16
  EXPECT_EQ(RoundToHalf(-1e9), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(RoundToHalf(0x1p-24), 0x1p-24f);            // the smallest subnormal
  EXPECT_EQ(RoundToHalf(0x1p-25), 0.0f);                // halfway to 2^-24: even is 0
  EXPECT_EQ(RoundToHalf(3 * 0x1p-26), 0x1p-24f);        // 0.75 of a subnormal step
  EXPECT_EQ(RoundToHalf(3 * 0x1p-25), 0x1p-23f);        // 1.5 steps: ties to 2 steps
  EXPECT_EQ(RoundToHalf(0x1p-14 - 0x1p-25), 0x1p-14f);  // rounds up into the normals
  EXPECT_TRUE(std::signbit(RoundToHalf(-0x1p-30)));     // -0 keeps its sign
  EXPECT_TRUE(std::isnan(RoundToHalf(std::numeric_limits<double>::quiet_NaN())));
}

TEST(ReferenceHalfTest, EncodesKnownBitPatterns) {
  EXPECT_EQ(HalfBits(1.0), 0x3C00u);
  EXPECT_EQ(HalfBits(-2.0), 0xC000u);
  EXPECT_EQ(HalfBits(65504.0), 0x7BFFu);
  EXPECT_EQ(HalfBits(0x1p-24), 0x0001u);
  EXPECT_EQ(HalfBits(0x1p-14), 0x0400u);
  EXPECT_EQ(HalfBits(1e6), 0x7C00u);
  EXPECT_EQ(HalfBits(-0.0), 0x8000u);
  EXPECT_EQ(HalfFromBits(0x3555u), 0x1.554p-2f);
  EXPECT_EQ(HalfFromBits(0x03FFu), 1023 * 0x1p-24f);
  EXPECT_EQ(HalfFromBits(0xFC00u), -std::numeric_limits<float>::infinity());
}

TEST(ReferenceHalfTest, EveryEncodingRoundTrips) {
  for (uint32_t bits = 0; bits <= 0xFFFFu; ++bits) {
    const auto half_bits = static_cast<uint16_t>(bits);
    const float value = HalfFromBits(half_bits);
    if (std::isnan(value)) continue;
    EXPECT_EQ(HalfBits(value), half_bits) << std::hex << bits;
    EXPECT_EQ(RoundToHalf(value), value) << std::hex << bits;
  }
}

TEST(ReferenceHalfTest, HalfArithmeticRoundsEveryOperation) {
  EXPECT_EQ((Half(1.0) + Half(0x1p-11)).value(), 1.0f);
  EXPECT_EQ((Half(2048.0) + Half(3.0)).value(), 2052.0f);
  EXPECT_EQ((Half(1.0) - Half(0x1p-12)).value(), 1.0f);  // a quarter ulp below 1 is lost
  EXPECT_EQ((Half(1.0 + 0x1p-10) * Half(1.0 + 0x1p-10)).value(), 1.0f + 0x1p-9f);
  EXPECT_EQ((Half(256.0) * Half(256.0)).value(), std::numeric_limits<float>::infinity());
}

// ---- the integer building blocks --------------------------------------------------------------

TEST(ReferenceAluCoreTest, OperandHashMatchesKnownValues) {
  EXPECT_EQ(OperandHash(0), 0u);
  EXPECT_EQ(OperandHash(1), 0x93694f34u);
  EXPECT_EQ(OperandHash(2), 0x5c724b31u);
  EXPECT_EQ(OperandHash(64 + 5), 0x61bca0c7u);
}

TEST(ReferenceAluCoreTest, PackedDotProducts) {
  // bytes (lane 0 first): a = (-128, 127, 2, -1), b = (-128, -128, 3, 5)
  EXPECT_EQ(Dot4I8Packed(0xFF027F80u, 0x05038080u), 16384 - 16256 + 6 - 5);
  EXPECT_EQ(Dot4I8Packed(0x80808080u, 0x80808080u), 4 * 16384);
  EXPECT_EQ(Dot4U8Packed(0xFFFFFFFFu, 0xFFFFFFFFu), 4u * 255u * 255u);
  EXPECT_EQ(Dot4U8Packed(0x01020304u, 0x05060708u), 4u * 8u + 3u * 7u + 2u * 6u + 1u * 5u);
}

// ---- f32 models ------------------------------------------------------------------------------

TEST(ReferenceAluCoreTest, F32ScalarFollowsTheAffineMap) {
  // Thread 0: s = 0, chains start at -1, -0.75, ..., 0.75 (sum -1); a = 1 - 2^-10, b = 2^-11,
  // so each chain approaches b / (1 - a) = 0.5 as x_n = 0.5 + (x_0 - 0.5) a^n and the sum of
  // the 8 chains after n steps is 4 - 5 a^n. Each chain takes 4 steps an iteration.
  EXPECT_EQ(FmaScalarModel(Precision::kF32, 1, 0)[0], -1.0);
  const double a = 1.0 - 0x1p-10;
  for (uint32_t iterations : {1u, 16u, 48u, 1024u}) {
    EXPECT_NEAR(FmaScalarModel(Precision::kF32, 1, iterations)[0],
                4.0 - 5.0 * std::pow(a, 4 * iterations), 1e-5)
        << iterations;
  }
}

TEST(ReferenceAluCoreTest, F32ScalarDependsOnTheIterationCount) {
  const std::vector<double> at16 = FmaScalarModel(Precision::kF32, 256, 16);
  const std::vector<double> at17 = FmaScalarModel(Precision::kF32, 256, 17);
  for (size_t i = 0; i < at16.size(); ++i) {
    // Far beyond the row's tolerance (1e-5 + 1e-4 |m|).
    EXPECT_GT(std::fabs(at16[i] - at17[i]), 5 * (1e-5 + 1e-4 * std::fabs(at16[i]))) << i;
  }
}

TEST(ReferenceAluCoreTest, F32Vec4LanesAreScalarThreads) {
  // Lane j of thread idx computes what the scalar kernel computes for thread (idx + 256 j) & 1023.
  const std::vector<double> scalar = FmaScalarModel(Precision::kF32, 1024, 3);
  const std::vector<double> vec4 = FmaVec4Model(Precision::kF32, 256, 3);
  for (size_t i = 0; i < vec4.size(); ++i) {
    const auto lane = [&](size_t j) { return static_cast<float>(scalar[(i + 256 * j) & 1023]); };
    EXPECT_EQ(vec4[i], (lane(0) + lane(1)) + (lane(2) + lane(3))) << i;
  }
}

/// Thread 0's l, m and c of the mat4 and matvec kernels, in double.
constexpr double kLanes0[4] = {0.0, 0.25, 0.5, 0.75};

TEST(ReferenceAluCoreTest, F32Mat4OneStep) {
  EXPECT_EQ(FmaMat4Model(Precision::kF32, 1, 0)[0], 1.5);  // x = l
  // x' = m l + c, m[col j][row i] = ((3 i + 12 j) % 15 + 1) / 128, c = l.yzwx - 0.5.
  double sum = 0;
  for (int i = 0; i < 4; ++i) {
    double row = kLanes0[(i + 1) % 4] - 0.5;
    for (int j = 0; j < 4; ++j) row += ((3 * i + 12 * j) % 15 + 1) / 128.0 * kLanes0[j];
    sum += row;
  }
  EXPECT_NEAR(FmaMat4Model(Precision::kF32, 1, 1)[0], sum, 1e-6);
  EXPECT_NEAR(FmaMat4Model(Precision::kF16, 1, 1)[0], sum, 4e-3);
}

TEST(ReferenceAluCoreTest, F32MatvecOneStep) {
  // x0 = l, x1 = l.wzyx - 0.5: sum 1.5 + (1.5 - 2).
  EXPECT_EQ(FmaMatvecModel(Precision::kF32, 1, 0)[0], 1.0);
  double x1[4], o[4];
  for (int i = 0; i < 4; ++i) x1[i] = kLanes0[3 - i] - 0.5;
  for (int k = 0; k < 4; ++k) {
    o[k] = kLanes0[(k + 1) % 4] - 0.5;  // c
    for (int i = 0; i < 4; ++i) {
      o[k] += ((24 * k + 3 * i) % 7 + 1) / 128.0 * kLanes0[i];
      o[k] += ((24 * k + 12 + 3 * i) % 7 + 1) / 128.0 * x1[i];
    }
  }
  // After one iteration x1 = old x0 = l (sum 1.5) and x0 = o.
  const double expected = 1.5 + o[0] + o[1] + o[2] + o[3];
  EXPECT_NEAR(FmaMatvecModel(Precision::kF32, 1, 1)[0], expected, 1e-6);
  EXPECT_NEAR(FmaMatvecModel(Precision::kF16, 1, 1)[0], expected, 4e-3);
}

TEST(ReferenceAluCoreTest, F32ModelsStayFiniteAndBounded) {
  for (uint32_t iterations : {16u, 64u}) {
    for (double v : FmaScalarModel(Precision::kF32, 1024, iterations))
      EXPECT_LT(std::fabs(v), 16.0);
    for (double v : FmaMat4Model(Precision::kF32, 1024, iterations)) EXPECT_LT(std::fabs(v), 4.0);
    for (double v : FmaMatvecModel(Precision::kF32, 1024, iterations)) EXPECT_LT(std::fabs(v), 8.0);
  }
}

// ---- f16 models ------------------------------------------------------------------------------

TEST(ReferenceAluCoreTest, F16ScalarStartsAndSettles) {
  EXPECT_EQ(FmaScalarModel(Precision::kF16, 1, 0)[0], -1.0);
  // Thread 0: a = 7/8, b = 1/16: fixed point 0.5 per chain; f16 rounding can stall a chain a
  // few ulp (2^-11 each) away from it.
  EXPECT_NEAR(FmaScalarModel(Precision::kF16, 1, 16)[0], 4.0, 8 * 8 * 0x1p-11);
  // Thread 5: s = 5/1024, t = 1: a = 7/8 - 2^-7, b = s/8 + 1/16.
  const double a = 0.875 - 0x1p-7, b = 5.0 / 1024 / 8 + 0.0625;
  EXPECT_NEAR(FmaScalarModel(Precision::kF16, 6, 16)[5], 8 * b / (1 - a), 8 * 8 * 0x1p-10);
}

TEST(ReferenceAluCoreTest, F16ValuesAreHalfValues) {
  for (double v : FmaVec4Model(Precision::kF16, 64, 16)) EXPECT_EQ(RoundToHalf(v), v);
  for (double v : FmaMatvecModel(Precision::kF16, 64, 16)) EXPECT_EQ(RoundToHalf(v), v);
}

// ---- integer models --------------------------------------------------------------------------

TEST(ReferenceAluCoreTest, I32ScalarWraps) {
  // Thread 0: a = OperandHash(0) | 1 = 1, b = OperandHash(1); chain k starts at OperandHash(2 + k).
  uint32_t start = 0;
  for (uint32_t k = 0; k < 8; ++k) start += OperandHash(2 + k);
  EXPECT_EQ(I32MadScalarModel(1, 0)[0], static_cast<int32_t>(start));
  // With a = 1 each of 8 chains adds b 4 times an iteration: 32 b, wrapping.
  const uint32_t wrapped = start + 32u * 3u * OperandHash(1);
  EXPECT_EQ(I32MadScalarModel(1, 3)[0], static_cast<int32_t>(wrapped));
}

TEST(ReferenceAluCoreTest, I32Mat4StartsAtTheSumOfX) {
  // Thread 1: x = OperandHash(64 + 16 .. 64 + 19).
  uint32_t sum = 0;
  for (uint32_t j = 0; j < 4; ++j) sum += OperandHash(64 + 16 + j);
  EXPECT_EQ(I32MadMat4Model(2, 0)[1], static_cast<int32_t>(sum));
}

TEST(ReferenceAluCoreTest, I8MatvecStaysInt8) {
  // The state is two vectors of int8 lanes: the output, their sum, lies in [-1024, 1016].
  for (uint32_t iterations : {0u, 1u, 16u, 48u}) {
    for (double v : I8MatvecModel(256, iterations)) {
      EXPECT_GE(v, -1024.0);
      EXPECT_LE(v, 1016.0);
    }
  }
  // Thread 0 at 0 iterations: x0 = OperandHash(8), x1 = OperandHash(9) as int8 lanes.
  int32_t sum = 0;
  for (uint32_t packed : {OperandHash(8), OperandHash(9)}) {
    for (int i = 0; i < 4; ++i) sum += static_cast<int8_t>(static_cast<uint8_t>(packed >> (8 * i)));
  }
  EXPECT_EQ(I8MatvecModel(1, 0)[0], sum);
}

TEST(ReferenceAluCoreTest, Dp4aOneIteration) {
  // acc_k = operand(16 + k) + dot(operand(k), operand(8 + k)) after one iteration.
  uint32_t signed_sum = 0, unsigned_sum = 0;
  for (uint32_t k = 0; k < 8; ++k) {
    signed_sum += OperandHash(16 + k) +
                  static_cast<uint32_t>(Dot4I8Packed(OperandHash(k), OperandHash(8 + k)));
    unsigned_sum += OperandHash(16 + k) + Dot4U8Packed(OperandHash(k), OperandHash(8 + k));
  }
  EXPECT_EQ(I8Dp4aModel(1, 1)[0], static_cast<int32_t>(signed_sum));
  EXPECT_EQ(U8Dp4aModel(1, 1)[0], unsigned_sum);
}

TEST(ReferenceAluCoreTest, IntegerModelsDependOnThreadAndIterations) {
  using Model = std::vector<double> (*)(uint32_t, uint32_t);
  for (Model model : {I32MadScalarModel, I32MadVec4Model, I32MadMat4Model, I8MatvecModel,
                      I8Dp4aModel, U8Dp4aModel}) {
    const std::vector<double> at16 = model(64, 16);
    const std::vector<double> at17 = model(64, 17);
    int changed = 0, distinct_neighbours = 0;
    for (size_t i = 0; i < at16.size(); ++i) {
      changed += at16[i] != at17[i];
      if (i > 0) distinct_neighbours += at16[i] != at16[i - 1];
    }
    EXPECT_GE(changed, 60);
    EXPECT_GE(distinct_neighbours, 60);
  }
}

}  // namespace
}  // namespace refract::reference
