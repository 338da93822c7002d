// The merge-o-heads rows on the machine's adapter: decode attention's split with the merge by
// head (attention's merge and the o projection a group of heads at a time, their shares added
// in fixed point) and the unfused chain it replaces (split, merge, o GEMV), each against the CPU
// model at Qwen2.5-0.5B's decode shape, S = 1024; bugs planted in the fused kernel are caught: a
// merge that drops a split, a projection that skips its last block of o, a sum whose shares go
// unscaled by the fixed point's 1.0, a vector the kernel leaves uncleared.
#include <gtest/gtest.h>

#include "base/error.h"
#include "suites/kernels/merge_o_heads_benchmark.h"
#include "suites/kernels/model_shapes.h"
#include "testing/kernel_row.h"
#include "testing/planted_kernel.h"

namespace refract::suites::kernels {
namespace {

using refract::testing::PlantedKernel;
using refract::testing::RunRow;

refract::testing::RowRun RunCase(Variant variant) {
  MergeOHeadsBenchmark row({.id = "merge-o-heads-test"}, variant, Qwen25(), 1024,
                           {.cold_footprint_bytes = 1, .seed = 5, .settings = {}});
  return RunRow(row);
}

TEST(KernelsMergeOHeads, TheMergeByHeadAndTheChainBothMatchTheModel) {
  for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
    const refract::testing::RowRun run = RunCase(variant);
    EXPECT_EQ(run.record.elements, 896u);  // the o projection
    EXPECT_LE(run.record.max_abs_error, run.record.tolerance.absolute);
    // Qwen's 14 heads of 64 values: a head a group, 14 shares added into each output; the chain
    // writes each once.
    EXPECT_EQ(results::NumberOf(run.params, "shares"), variant == Variant::kTuned ? 14 : 1);
  }
}

TEST(KernelsMergeOHeads, AMergeByHeadThatDropsASplitIsCaught) {
  PlantedKernel planted(
      "decode_merge_pair_part",
      "fold(&f, mls[u], parts[u], lane + (s0 + u) * MERGE_LANES < MERGE_SPLITS);",
      "fold(&f, mls[u], parts[u], lane + (s0 + u) * MERGE_LANES + 1u < MERGE_SPLITS);");
  EXPECT_THROW(RunCase(Variant::kTuned), VerificationError);
}

TEST(KernelsMergeOHeads, AMergeByHeadSkippingItsLastBlockOfOIsCaught) {
  PlantedKernel planted("decode_merge_o_heads",
                        "for (var b = 0u; b < GROUP_BLOCKS; b++) {\n      let words",
                        "for (var b = 0u; b + 1u < GROUP_BLOCKS; b++) {\n      let words");
  EXPECT_THROW(RunCase(Variant::kTuned), VerificationError);
}

TEST(KernelsMergeOHeads, AMergeByHeadThatAddsItsSharesUnscaledIsCaught) {
  PlantedKernel planted("decode_merge_o_heads", "i32(round(acc * FIXED_ONE))", "i32(round(acc))");
  EXPECT_THROW(RunCase(Variant::kTuned), VerificationError);
}

TEST(KernelsMergeOHeads, AMergeByHeadThatLeavesTheVectorUnclearedIsCaught) {
  PlantedKernel planted("decode_merge_o_heads", "o_clear[row] = 0i;",
                        "o_clear[row] = o_clear[row];");
  EXPECT_THROW(RunCase(Variant::kTuned), VerificationError);
}

}  // namespace
}  // namespace refract::suites::kernels
