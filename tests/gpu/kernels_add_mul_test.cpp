// add and mul rows on the test adapter: both variants of both ops at counts that are not
// multiples of 4 or of a workgroup, several vec4 a thread, and a planted vec4 add that drops
// the last partial vec4.
#include <gtest/gtest.h>

#include "base/error.h"
#include "suites/kernels/add_mul_benchmark.h"
#include "testing/planted_kernel.h"
#include "testing/shared_context.h"

namespace refract::suites::kernels {
namespace {

using refract::testing::PlantedKernel;
using refract::testing::SharedContext;

uint64_t RunRow(Variant variant, BinaryOp op, uint32_t count,
                KernelOptions options = {.cold_footprint_bytes = 1}) {
  SCOPED_TRACE("count=" + std::to_string(count));
  gpu::Context& context = SharedContext();
  AddMulBenchmark row({.id = "add-mul/test"}, variant, op, {"test", 1, count}, options);
  EXPECT_EQ(row.MissingRequirement(context), std::nullopt);
  row.Prepare(context);
  const uint64_t checked = row.Verify(context).elements;
  context.RunPass(row.Dispatches(), 1, false);
  row.Release();
  return checked;
}

TEST(KernelsAddMul, BothVariantsOfBothOps) {
  for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
    for (BinaryOp op : {BinaryOp::kAdd, BinaryOp::kMul}) {
      for (uint32_t count : {1u, 5u, 1027u}) EXPECT_EQ(RunRow(variant, op, count), count);
    }
  }
}

TEST(KernelsAddMul, TunedWithSeveralVec4AThread) {
  KernelOptions options{.cold_footprint_bytes = 1, .overrides = {{"WG", 64}, {"VPT", 4}}};
  EXPECT_EQ(RunRow(Variant::kTuned, BinaryOp::kMul, 4099, options), 4099u);
}

TEST(KernelsAddMul, RotatesThroughCopies) {
  AddMulBenchmark row({.id = "add-mul/test"}, Variant::kTuned, BinaryOp::kAdd, {"test", 2, 50},
                      {.cold_footprint_bytes = 4 * 2 * 100 * 4});
  row.Prepare(SharedContext());
  EXPECT_EQ(row.Dispatches().size(), 4u);
  EXPECT_DOUBLE_EQ(row.WorkPerDispatch(), 4 * 3 * 4 * 100);
  row.Verify(SharedContext());
}

TEST(KernelsAddMul, PlantedVec4AddDroppingThePartialTailIsCaught) {
  PlantedKernel planted("llm_add_mul_tuned", "let count4 = (params.count + 3u) / 4u;",
                        "let count4 = params.count / 4u;");
  AddMulBenchmark row({.id = "add-mul/test"}, Variant::kTuned, BinaryOp::kAdd, {"test", 1, 1027},
                      {.cold_footprint_bytes = 1});
  row.Prepare(SharedContext());
  EXPECT_THROW(row.Verify(SharedContext()), VerificationError);
}

TEST(KernelsAddMul, Catalog) {
  EXPECT_EQ(AddBenchmarks().size(), 10u);
  const auto mul = MulBenchmarks();
  ASSERT_EQ(mul.size(), 10u);
  EXPECT_EQ(mul[5]->info().id, "mul/qwen2.5-0.5b/t2048/tuned");
  EXPECT_EQ(mul[5]->info().params.at("count").AsInteger(), 2048 * 4864);
}

}  // namespace
}  // namespace refract::suites::kernels
