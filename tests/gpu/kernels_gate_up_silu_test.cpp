// The gate-up-silu rows on the machine's adapter: the fused q8 gate/up GEMV (silu(gate) · up and
// its int8 quantizer in its epilogue) and the unfused chain it replaces, each against the CPU
// model at Qwen2.5-0.5B's decode shape; bugs planted are caught: up dropped, each workgroup's
// blocks written one block on, the fused norm adding the residual's first addend twice.
#include <gtest/gtest.h>

#include "base/error.h"
#include "suites/kernels/gate_up_silu_benchmark.h"
#include "suites/kernels/model_shapes.h"
#include "testing/kernel_row.h"
#include "testing/planted_kernel.h"
#include "testing/shared_context.h"

namespace refract::suites::kernels {
namespace {

using refract::testing::PlantedKernel;
using refract::testing::RunRow;
using refract::testing::SharedContext;

refract::testing::RowRun RunCase(Variant variant, ops::Settings settings = {}) {
  GateUpSiluBenchmark row({.id = "gate-up-silu-test"}, variant, Qwen25(),
                          {.cold_footprint_bytes = 1, .seed = 7, .settings = std::move(settings)});
  return RunRow(row);
}

bool HasDot4() { return SharedContext().limits().packed_4x8_dot; }

TEST(KernelsGateUpSilu, TheFusedGemvAndTheChainBothMatchTheModel) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
    const VerificationRecord record = RunCase(variant).record;
    EXPECT_EQ(record.elements, 4864u + 4864u / 32);  // every value and every block's scale
  }
}

TEST(KernelsGateUpSilu, TheFusedGemvsRowsMakeWholeBlocksAWorkgroup) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  const refract::testing::RowRun run =
      RunCase(Variant::kTuned, {{"wg", 256}, {"tpr", 32}, {"rows", 1}});
  EXPECT_EQ(results::NumberOf(run.params, "rows"), 8);  // 8 groups × 8 rows = 64
}

// The fused GEMV's row sums and its input's block sums through workgroup memory and through
// subgroup shuffles (where the device's subgroups hold the row group): both verify.
TEST(KernelsGateUpSilu, TheFusedGemvVerifiesWithWorkgroupAndSubgroupSums) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  for (const ops::Settings& settings : refract::testing::GemvRowSumSettings()) {
    const refract::testing::RowRun run = RunCase(Variant::kTuned, settings);
    EXPECT_EQ(results::NumberOf(run.params, "subgroups"), settings.at("subgroups"));
  }
}

TEST(KernelsGateUpSilu, AnEpilogueThatDropsUpIsCaught) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted(
      "decode_silu_quantize_part",
      "mixed[group * (ROWS / 2u) + r / 2u] = gate / (1.0 + exp(-gate)) * (*acc)[r + 1u];",
      "mixed[group * (ROWS / 2u) + r / 2u] = gate / (1.0 + exp(-gate));");
  EXPECT_THROW(RunCase(Variant::kTuned), VerificationError);
}

TEST(KernelsGateUpSilu, AnEpilogueWritingTheWrongBlockIsCaught) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted(
      "decode_silu_quantize_part",
      "return vec2<u32>((row0 - (lid / TPR) * ROWS) / 64u, WG / TPR * ROWS / 64u);",
      "return vec2<u32>((row0 - (lid / TPR) * ROWS) / 64u + 1u, WG / TPR * ROWS / 64u);");
  EXPECT_THROW(RunCase(Variant::kTuned), VerificationError);
}

// The fused GEMV's residual add reading a where b belongs: h and every code after it are off.
TEST(KernelsGateUpSilu, AFusedNormThatMisreadsTheResidualIsCaught) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted("decode_addend_stream_part", "values[i] = stream[slots.b + first + i];",
                        "values[i] = stream[slots.a + first + i];");
  EXPECT_THROW(RunCase(Variant::kTuned), VerificationError);
}

}  // namespace
}  // namespace refract::suites::kernels
