// add and mul rows on the test adapter: both variants of both ops at counts that are not
// multiples of 4 or of a workgroup, several vec4 a thread, and a planted vec4 add that drops
// the last partial vec4.
#include <gtest/gtest.h>

#include "base/error.h"
#include "suites/kernels/add_mul_benchmark.h"
#include "testing/kernel_row.h"
#include "testing/planted_kernel.h"
#include "testing/shared_context.h"

namespace refract::suites::kernels {
namespace {

using refract::testing::PlantedKernel;
using refract::testing::RunRow;
using refract::testing::SharedContext;

uint64_t RunCase(Variant variant, BinaryKind op, uint32_t count,
                 KernelOptions options = {.cold_footprint_bytes = 1}) {
  SCOPED_TRACE("count=" + std::to_string(count));
  AddMulBenchmark row({.id = "add-mul/test"}, variant, op, {"test", 1, count}, options);
  return RunRow(row).record.elements;
}

TEST(KernelsAddMul, BothVariantsOfBothOps) {
  for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
    for (BinaryKind op : {BinaryKind::kAdd, BinaryKind::kMul}) {
      for (uint32_t count : {1u, 5u, 1027u}) EXPECT_EQ(RunCase(variant, op, count), count);
    }
  }
}

TEST(KernelsAddMul, TunedWithSeveralVec4AThread) {
  KernelOptions options{.cold_footprint_bytes = 1, .settings = {{"wg", 64}, {"vpt", 4}}};
  EXPECT_EQ(RunCase(Variant::kTuned, BinaryKind::kMul, 4099, options), 4099u);
}

TEST(KernelsAddMul, RotatesThroughCopies) {
  AddMulBenchmark row({.id = "add-mul/test"}, Variant::kTuned, BinaryKind::kAdd, {"test", 2, 50},
                      {.cold_footprint_bytes = 4 * 2 * 100 * 4});
  row.Prepare(SharedContext());
  EXPECT_EQ(row.Dispatches().size(), 4u);
  EXPECT_DOUBLE_EQ(row.WorkPerDispatch(), 4 * 3 * 4 * 100);
  EXPECT_EQ(row.Verify(SharedContext()).elements, 100u);
}

TEST(KernelsAddMul, PlantedVec4AddDroppingThePartialTailIsCaught) {
  PlantedKernel planted("llm_add_mul_tuned", "let count4 = (params.count + 3u) / 4u;",
                        "let count4 = params.count / 4u;");
  AddMulBenchmark row({.id = "add-mul/test"}, Variant::kTuned, BinaryKind::kAdd, {"test", 1, 1027},
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
