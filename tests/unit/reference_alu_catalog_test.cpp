// The CPU models of the catalog's raw-ALU rows: WGSL builtin semantics against hand-computed
// values, two models traced by hand, and the ranges every float model stays in.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "reference/alu_catalog_models.h"

namespace refract::reference {
namespace {

TEST(AluCatalogBuiltins, CountOneBits) {
  EXPECT_EQ(CountOneBits(0u), 0u);
  EXPECT_EQ(CountOneBits(0xFFFFFFFFu), 32u);
  EXPECT_EQ(CountOneBits(0x80000001u), 2u);
  EXPECT_EQ(CountOneBits(0x0000F0F0u), 8u);
}

TEST(AluCatalogBuiltins, FirstLeadingBitOfU32) {
  EXPECT_EQ(FirstLeadingBit(0u), 0xFFFFFFFFu);  // no 1 bit
  EXPECT_EQ(FirstLeadingBit(1u), 0u);
  EXPECT_EQ(FirstLeadingBit(3u), 1u);
  EXPECT_EQ(FirstLeadingBit(0x0001FFFFu), 16u);
  EXPECT_EQ(FirstLeadingBit(0x80000000u), 31u);  // unsigned: the sign bit is a bit like others
  EXPECT_EQ(FirstLeadingBit(0xFFFFFFFFu), 31u);
}

TEST(AluCatalogBuiltins, ReverseBits) {
  EXPECT_EQ(ReverseBits(0u), 0u);
  EXPECT_EQ(ReverseBits(1u), 0x80000000u);
  EXPECT_EQ(ReverseBits(0x80000000u), 1u);
  EXPECT_EQ(ReverseBits(0x0000000Fu), 0xF0000000u);
  EXPECT_EQ(ReverseBits(0x12345678u), 0x1E6A2C48u);
}

TEST(AluCatalogBuiltins, I32DivisionTruncatesTowardZero) {
  EXPECT_EQ(DivideI32(7, 2), 3);
  EXPECT_EQ(DivideI32(-7, 2), -3);  // not -4 (floor)
  EXPECT_EQ(DivideI32(7, -2), -3);
  EXPECT_EQ(DivideI32(-7, -2), 3);
  EXPECT_EQ(DivideI32(-1, 5), 0);
  // WGSL's defined results for the two cases C++ leaves undefined.
  EXPECT_EQ(DivideI32(42, 0), 42);
  const int32_t min = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(DivideI32(min, -1), min);
}

TEST(AluCatalogBuiltins, ShiftsUseTheLowFiveBitsOfTheAmount) {
  EXPECT_EQ(ShiftLeft(1u, 31u), 0x80000000u);
  EXPECT_EQ(ShiftLeft(0x80000001u, 1u), 2u);  // the top bit falls off
  EXPECT_EQ(ShiftLeft(1u, 32u), 1u);          // 32 & 31 = 0
  EXPECT_EQ(ShiftLeft(1u, 33u), 2u);
  EXPECT_EQ(ShiftRight(0x80000000u, 31u), 1u);  // logical: no sign fill
  EXPECT_EQ(ShiftRight(0x80000000u, 1u), 0x40000000u);
  EXPECT_EQ(ShiftRight(0x80000000u, 63u), 1u);  // 63 & 31 = 31
}

TEST(AluCatalogBuiltins, Pack2x16FloatRoundsToNearestEvenF16) {
  EXPECT_EQ(Pack2x16Float({1.0f, -2.0f}), 0xC0003C00u);  // lane 0 in the low half
  EXPECT_EQ(Pack2x16Float({0.5f, 65504.0f}), 0x7BFF3800u);
  EXPECT_EQ(Pack2x16Float({1.0f + 0x1p-11f, 0.0f}), 0x00003C00u);      // tie: to even (1.0)
  EXPECT_EQ(Pack2x16Float({1.0f + 3 * 0x1p-11f, 0.0f}), 0x00003C02u);  // tie: up to even
  EXPECT_EQ(Pack2x16Float({0x1p-24f, 0.0f}), 0x00000001u);             // smallest subnormal
}

TEST(AluCatalogBuiltins, Unpack2x16Float) {
  const std::array<float, 2> ones = Unpack2x16Float(0xC0003C00u);
  EXPECT_EQ(ones[0], 1.0f);
  EXPECT_EQ(ones[1], -2.0f);
  const std::array<float, 2> tiny = Unpack2x16Float(0x7BFF0001u);
  EXPECT_EQ(tiny[0], 0x1p-24f);
  EXPECT_EQ(tiny[1], 65504.0f);
}

TEST(AluCatalogBuiltins, BumpBytesIncrementsEachByteAndRotates) {
  EXPECT_EQ(BumpBytes(0x00000000u), 0x01010101u);
  // Bytes 44 33 22 11 (low first) + 1 = 45 34 23 12, moved up one byte, the top one to byte 0.
  EXPECT_EQ(BumpBytes(0x11223344u), 0x23344512u);
  EXPECT_EQ(BumpBytes(0xFFFFFFFFu), 0x00000000u);  // each byte wraps on its own: no carries
  EXPECT_EQ(BumpBytes(0xFF0000FFu), 0x01010000u);
}

// Thread 0 after 1 iteration (4 steps a chain), by hand. a = 2, b_c = -26 + 3c,
// x_c = ((13c) & 255) - 128. Chain 0: -128 -> -64-26 = -90 -> -45-26 = -71 -> -35-26 = -61
// -> -30-26 = -56 (-71 / 2 = -35 and -61 / 2 = -30: truncation, not floor). The 8 chains end
// at -56, -50, -43, -37, -31, -24, -18, -11.
TEST(AluCatalogModels, I32DivThreadZeroByHand) {
  EXPECT_EQ(I32DivModel(1, 1), std::vector<double>{-270.0});
}

// Thread 0 after 1 iteration, by hand. a = 0.5, b_c = ((3c) & 15) - 7.75,
// x_c = ((11c) & 63) - 32. Chain 0: -32 -> trunc(-23.75) = -23 -> trunc(-19.25) = -19
// -> trunc(-17.25) = -17 -> trunc(-16.25) = -16. The 8 chains end at -16, -9, -3, 1, 8, 14,
// -12, -5.
TEST(AluCatalogModels, I32F32ConvertThreadZeroByHand) {
  EXPECT_EQ(I32F32ConvertModel(1, 1), std::vector<double>{-22.0});
}

// One iteration is 4 steps: each byte is bumped 4 times and rotated back to its place.
TEST(AluCatalogModels, PackUnpackIterationAddsFourToEveryByte) {
  const std::vector<double> out = U32PackUnpackModel(3, 1);
  for (uint32_t idx = 0; idx < 3; ++idx) {
    uint32_t sum = 0;
    for (uint32_t c = 0; c < 8; ++c) {
      const uint32_t x = (idx + c) * 0x9e3779b9u;
      uint32_t bumped = 0;
      for (uint32_t byte = 0; byte < 4; ++byte) {
        bumped |= (((x >> (8 * byte)) + 4u) & 0xFFu) << (8 * byte);
      }
      sum += bumped;
    }
    EXPECT_EQ(out[idx], static_cast<double>(sum)) << "thread " << idx;
  }
}

// The bit models' builtins are checked above; here their shape: one value a thread, each an
// integer in u32 range.
TEST(AluCatalogModels, IntegerModelsGiveOneIntegerPerThread) {
  const std::vector<std::function<std::vector<double>(uint32_t, uint32_t)>> models = {
      U32ShiftModel, U32CountOneBitsModel, U32FirstLeadingBitModel, U32ReverseBitsModel};
  for (const auto& model : models) {
    const std::vector<double> out = model(70, 3);
    ASSERT_EQ(out.size(), 70u);
    for (double v : out) {
      EXPECT_EQ(v, std::floor(v));
      EXPECT_GE(v, 0.0);
      EXPECT_LE(v, 4294967295.0);
    }
  }
}

// A model is a pure function of (threads, iterations).
TEST(AluCatalogModels, ModelsAreDeterministic) {
  EXPECT_EQ(U32CountOneBitsModel(64, 5), U32CountOneBitsModel(64, 5));
  EXPECT_EQ(DivModel(Precision::kF16, 64, 5), DivModel(Precision::kF16, 64, 5));
}

struct Range {
  const char* name;
  std::function<std::vector<double>(uint32_t, uint32_t)> model;
  uint32_t default_iterations;
  double low, high;  // of the 8-chain sum
};

// Over the kernels' default iteration counts every float chain stays in the range its kernel
// comment states, far from 0 (no denormals), infinity and NaN.
TEST(AluCatalogModels, FloatModelsStayBoundedOverTheDefaultIterations) {
  const std::vector<Range> ranges = {
      {"f32-div", ModelAt(DivModel, Precision::kF32), 256, 8, 8 * 3.1},
      {"f16-div", ModelAt(DivModel, Precision::kF16), 256, 8, 8 * 3.1},
      {"f32-sqrt", ModelAt(SqrtModel, Precision::kF32), 256, 8 * 2, 8 * 4},
      {"f16-sqrt", ModelAt(SqrtModel, Precision::kF16), 256, 8 * 2, 8 * 4},
      {"f32-rsqrt", ModelAt(RsqrtModel, Precision::kF32), 256, 8 * 1.5, 8 * 3},
      {"f16-rsqrt", ModelAt(RsqrtModel, Precision::kF16), 256, 8 * 1.5, 8 * 3},
      {"f32-pow", ModelAt(PowModel, Precision::kF32), 128, 8 * 2, 8 * 5},
      {"f16-pow", ModelAt(PowModel, Precision::kF16), 128, 8 * 2, 8 * 5},
      {"f32-sincos", ModelAt(SincosModel, Precision::kF32), 128, 8 * std::cos(1.0), 8},
      {"f16-sincos", ModelAt(SincosModel, Precision::kF16), 128, 8 * std::cos(1.0), 8},
      {"f32-log", ModelAt(LogModel, Precision::kF32), 256, 8 * 10, 8 * 19},
      {"f16-log", ModelAt(LogModel, Precision::kF16), 256, 8 * 10, 8 * 19},
      {"f32-f16-convert", F32F16ConvertModel, 256, 16 * 0.25, 16 * 6},
      {"f32-fma-builtin", F32FmaBuiltinModel, 256, 8 * 0.0625, 8 * 16},
      {"f32-select", F32SelectModel, 256, 8 * 0.5, 8 * 1.5},
      {"f32-clamp", F32ClampModel, 256, 0, 8},
      {"f32-minmax", F32MinMaxModel, 256, 0, 8},
      {"branch-none", BranchNoneModel, 256, 8 * 0.0625, 8 * 16},
      {"branch-uniform", BranchUniformModel, 256, 8 * 0.03125, 8 * 16},
      {"branch-coherent", BranchCoherentModel, 256, 8 * 0.03125, 8 * 16},
      {"branch-divergent", BranchDivergentModel, 256, 8 * 0.03125, 8 * 16},
  };
  for (const Range& range : ranges) {
    SCOPED_TRACE(range.name);
    for (uint32_t iterations : {1u, range.default_iterations}) {
      const std::vector<double> out = range.model(256, iterations);
      ASSERT_EQ(out.size(), 256u);
      for (double v : out) {
        ASSERT_TRUE(std::isfinite(v));
        EXPECT_GE(v, range.low);
        EXPECT_LE(v, range.high);
      }
    }
  }
}

// f32-select's adds are exact (multiples of 1/32 below 2), so its outputs are multiples of 1/32.
TEST(AluCatalogModels, SelectStaysOnItsGrid) {
  for (double v : F32SelectModel(256, 40)) EXPECT_EQ(v * 32, std::floor(v * 32));
}

}  // namespace
}  // namespace refract::reference
