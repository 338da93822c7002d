// The gate-up-down rows on the machine's adapter: the decode step's fused gate/up GEMV that ends
// in the down projection, and the unfused chain of four dispatches it replaces, each against the
// CPU model at Qwen2.5-0.5B's decode shape; bugs planted are caught: one q8 block of the 152 left
// out of the down projection (the check's allowance is far below one block), the vector the
// kernel clears left as it was.
#include <gtest/gtest.h>

#include "base/error.h"
#include "suites/kernels/gate_up_down_benchmark.h"
#include "suites/kernels/model_shapes.h"
#include "testing/kernel_row.h"
#include "testing/planted_kernel.h"
#include "testing/shared_context.h"

namespace refract::suites::kernels {
namespace {

using refract::testing::PlantedKernel;
using refract::testing::RunRow;
using refract::testing::SharedContext;

refract::testing::RowRun RunCase(Variant variant) {
  GateUpDownBenchmark row({.id = "gate-up-down-test"}, variant, Qwen25(),
                          {.cold_footprint_bytes = 1, .seed = 7});
  return RunRow(row);
}

bool HasDot4() { return SharedContext().limits().packed_4x8_dot; }

TEST(KernelsGateUpDown, TheFusedKernelAndTheChainBothMatchTheModel) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
    const VerificationRecord record = RunCase(variant).record;
    EXPECT_EQ(record.elements, 896u);  // every row of the hidden size
  }
}

// The last workgroup's last block (of the intermediate's 152) multiplies nothing: every output
// misses one block's share of its sum.
TEST(KernelsGateUpDown, ADownProjectionMissingOneBlockIsCaught) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted(
      "decode_gate_up_down_store_part",
      "share = fma(early_s[t * MAX_DOWN_BLOCKS + b] * ds.x, f32(dot_block), share);",
      "share = fma(early_s[t * MAX_DOWN_BLOCKS + b] * ds.x,"
      " f32(dot_block) * f32((blocks.x + b + 1u) * 64u != n), share);");
  EXPECT_THROW(RunCase(Variant::kTuned), VerificationError);
}

TEST(KernelsGateUpDown, AFusedKernelThatLeavesTheOtherVectorUnclearedIsCaught) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted("decode_gate_up_down_store_part", "down_clear[row] = 0i;",
                        "down_clear[row] = 1i;");
  EXPECT_THROW(RunCase(Variant::kTuned), VerificationError);
}

}  // namespace
}  // namespace refract::suites::kernels
