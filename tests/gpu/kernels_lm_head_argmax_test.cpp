// The lm-head-argmax rows on the machine's adapter: the q8 LM head that ends in the argmax's
// first stage and the unfused chain it replaces (the GEMV, then the argmax's own first stage),
// each against the CPU model at Qwen2.5-0.5B's shape (151,936 × 896), with two equal largest
// logits in one partial's range; bugs planted are caught: a rule that takes the later of equal
// largest logits (in both: they share the rule), a fused kernel that skips its last row group.
#include <gtest/gtest.h>

#include "base/error.h"
#include "suites/kernels/lm_head_argmax_benchmark.h"
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
  LmHeadArgmaxBenchmark row({.id = "lm-head-argmax-test"}, variant, Qwen25(),
                            {.cold_footprint_bytes = 1, .seed = 5, .settings = {}});
  return RunRow(row);
}

bool HasDot4() { return SharedContext().limits().packed_4x8_dot; }

TEST(KernelsLmHeadArgmax, TheFusedHeadAndTheChainBothMatchTheModel) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
    const refract::testing::RowRun run = RunCase(variant);
    EXPECT_EQ(run.record.elements, 151936u);  // the logits; the partials are checked whole
    EXPECT_LE(run.record.max_abs_error, run.record.tolerance.absolute);
    EXPECT_EQ(results::TextOf(run.params, "equal_largest"), "true");
  }
}

TEST(KernelsLmHeadArgmax, ARuleTakingTheLaterOfEqualLogitsIsCaught) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted("decode_argmax_rule_part", "(a.value == b.value && a.index < b.index)",
                        "(a.value == b.value && a.index > b.index)");
  for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
    EXPECT_THROW(RunCase(variant), VerificationError);
  }
}

TEST(KernelsLmHeadArgmax, AFusedHeadSkippingItsLastRowGroupIsCaught) {
  if (!HasDot4()) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted("decode_head_argmax_store_part", "for (var g = 1u; g < WG / TPR; g++) {",
                        "for (var g = 1u; g + 1u < WG / TPR; g++) {");
  EXPECT_THROW(RunCase(Variant::kTuned), VerificationError);
}

}  // namespace
}  // namespace refract::suites::kernels
