// The qkv-rope rows on the machine's adapter: the fused q8 q/k/v GEMV (bias, RoPE and KV append
// in its epilogue) and the unfused chain it replaces, each against the CPU model at Qwen2.5-0.5B's
// decode shape, at the GEMV's default and at odd rows (made even by the fused op); bugs planted
// in either are caught: keys appended one position off, the RoPE pair misread, a fused norm that
// skips its weight, one whose deferred 1 / rms is never applied, a residual sum that is not
// written.
#include <gtest/gtest.h>

#include "base/error.h"
#include "suites/kernels/model_shapes.h"
#include "suites/kernels/qkv_rope_benchmark.h"
#include "testing/kernel_row.h"
#include "testing/planted_kernel.h"
#include "testing/shared_context.h"

namespace refract::suites::kernels {
namespace {

using refract::testing::PlantedKernel;
using refract::testing::RunRow;
using refract::testing::SharedContext;

refract::testing::RowRun RunCase(Variant variant, ops::Settings settings = {}) {
  QkvRopeBenchmark row({.id = "qkv-rope-test"}, variant, Qwen25(),
                       {.cold_footprint_bytes = 1, .seed = 5, .settings = std::move(settings)});
  return RunRow(row);
}

bool HasDot4() { return SharedContext().limits().packed_4x8_dot; }

TEST(KernelsQkvRope, TheFusedGemvAndTheChainBothMatchTheModel) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
    const VerificationRecord record = RunCase(variant).record;
    // q (14 heads × 64) and the k and v cache rows around the position (3 × 2 × 64 each).
    EXPECT_EQ(record.elements, 14u * 64 + 2 * 3 * 2 * 64);
    EXPECT_LE(record.max_abs_error, record.tolerance.absolute);
  }
}

TEST(KernelsQkvRope, AnOddRowCountIsMadeEvenByTheFusedGemv) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  const refract::testing::RowRun run = RunCase(Variant::kTuned, {{"rows", 1}, {"tpr", 16}});
  EXPECT_EQ(results::NumberOf(run.params, "rows"), 2);
}

// The fused GEMV's row sums and its input's block sums through workgroup memory and through
// subgroup shuffles (where the device's subgroups hold the row group): both verify.
TEST(KernelsQkvRope, TheFusedGemvVerifiesWithWorkgroupAndSubgroupSums) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  for (const ops::Settings& settings : refract::testing::GemvRowSumSettings()) {
    const refract::testing::RowRun run = RunCase(Variant::kTuned, settings);
    EXPECT_EQ(results::NumberOf(run.params, "subgroups"), settings.at("subgroups"));
  }
}

TEST(KernelsQkvRope, AFusedEpilogueAppendingKeysOnePositionOffIsCaught) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted("decode_qkv_rope_store_part",
                        "let at = position * kv_width + (s - rope.heads) * d;",
                        "let at = (position + 1u) * kv_width + (s - rope.heads) * d;");
  EXPECT_THROW(RunCase(Variant::kTuned), VerificationError);
}

TEST(KernelsQkvRope, AFusedEpilogueRotatingTheWrongPairIsCaught) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted("decode_qkv_rope_store_part",
                        "let b = (*acc)[r + 1u] + bias[head + i + half];",
                        "let b = (*acc)[r + 1u] + bias[head + i + 1u];");
  EXPECT_THROW(RunCase(Variant::kTuned), VerificationError);
}

TEST(KernelsQkvRope, TheChainsRopeRotatingAdjacentPairsIsCaught) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted("decode_rope_kv", "return vec2<u32>(i, i + half);",
                        "return vec2<u32>(2u * i, 2u * i + 1u);");
  EXPECT_THROW(RunCase(Variant::kBaseline), VerificationError);
}

// The fused GEMV's own norm without its weight (still read, multiplied by 0): the codes it
// quantizes are off, so q, k and v are.
TEST(KernelsQkvRope, AFusedNormThatSkipsItsWeightIsCaught) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted("decode_add_norm_part", "residual_weight[t][i] = norm_weight[at];",
                        "residual_weight[t][i] = norm_weight[at] * 0.0 + 1.0;");
  EXPECT_THROW(RunCase(Variant::kTuned), VerificationError);
}

// The norm's scale, deferred to the GEMV's read of each block's d, left out: the codes are
// right, every output is off by the row's rms.
TEST(KernelsQkvRope, AFusedInputThatNeverScalesByTheRmsIsCaught) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted("decode_gemv_norm_input_part",
                        "return vec2<f32>(ds.x * input_inverse_rms, ds.y);",
                        "return vec2<f32>(ds.x, ds.y);");
  EXPECT_THROW(RunCase(Variant::kTuned), VerificationError);
}

// The residual's sum normed right but never stored: the next layer would add to a stale row.
TEST(KernelsQkvRope, AFusedNormThatDoesNotStoreTheSumIsCaught) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted("decode_add_norm_part", "stream[slots.sum + first + i] = residual[t][i];",
                        "stream[slots.sum + first + i] = 0.0 * residual[t][i];");
  EXPECT_THROW(RunCase(Variant::kTuned), VerificationError);
}

}  // namespace
}  // namespace refract::suites::kernels
