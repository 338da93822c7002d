// The catalog's remaining raw-ALU kernels (CatalogAluRows) against their CPU models on the
// machine's Vulkan adapter (lavapipe without a GPU), at the tolerances the rows state.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "gpu/context.h"
#include "suites/ceilings/alu_row.h"
#include "suites/ceilings/catalog_alu_rows.h"
#include "testing/row_lookup.h"
#include "testing/shared_context.h"

namespace refract::suites::ceilings {
namespace {

using refract::testing::FindAluSpec;
using refract::testing::GtestName;
using refract::testing::SharedContext;

// Small enough for lavapipe on 2 cores (the 28 rows x 2 runs take a few seconds), large enough
// for 4 workgroups, so the per-workgroup condition of branch-coherent takes both values.
constexpr uint32_t kThreads = 256;

class CatalogAluRowTest : public ::testing::TestWithParam<AluRowSpec> {};

TEST_P(CatalogAluRowTest, KernelMatchesTheModel) {
  const AluRowSpec& spec = GetParam();
  gpu::Context& context = SharedContext();
  if (std::optional<std::string> missing = bench::MissingRequirement(context, spec.needs)) {
    GTEST_SKIP() << spec.id << ": " << *missing;
  }
  // The minimum iteration count and a larger one: a kernel that ignores the loop bound, or a
  // chain that drifts over more iterations, fails at one of them.
  for (uint32_t iterations : {16u, 40u}) {
    SCOPED_TRACE(spec.id + " at " + std::to_string(iterations) + " iterations");
    EXPECT_NO_THROW(VerifyAluKernel(context, spec, kThreads, iterations));
  }
}

INSTANTIATE_TEST_SUITE_P(Rows, CatalogAluRowTest, ::testing::ValuesIn(CatalogAluRows()),
                         [](const ::testing::TestParamInfo<AluRowSpec>& info) {
                           return GtestName(info.param.id);
                         });

// The division trap as a model: x = x / a + b (a loop-invariant divisor, which a compiler turns
// into a reciprocal multiply) instead of the kernel's x = a / x + b. Computed in double so it
// stays finite (it grows by 1 / a per step) and the comparison fails on values, not on inf.
std::vector<double> DivideByInvariantModel(uint32_t threads, uint32_t iterations) {
  std::vector<double> out(threads);
  for (uint32_t idx = 0; idx < threads; ++idx) {
    const double a = 0.25 + (idx & 15u) * 0.03125;
    const double b = 1.0 + ((idx >> 4) & 7u) * 0.0625;
    double sum = 0;
    for (uint32_t c = 0; c < 8; ++c) {
      double x = 1.0 + ((idx + 5 * c) & 31u) * 0.03125;
      for (uint32_t step = 0; step < 4 * iterations; ++step) x = x / a + (b + c * 0.125);
      sum += x;
    }
    out[idx] = sum;
  }
  return out;
}

// A test must be able to fail: the real f32-div kernel against the trap's arithmetic.
TEST(CatalogAluPlantedTrap, DivisionByALoopInvariantIsCaught) {
  AluRowSpec spec = FindAluSpec("f32-div");
  spec.model = DivideByInvariantModel;
  EXPECT_THROW(VerifyAluKernel(SharedContext(), spec, kThreads, 16), VerificationError);
}

// And with the right model the same call passes, so the throw above is the model's doing.
TEST(CatalogAluPlantedTrap, TheRightModelPasses) {
  EXPECT_NO_THROW(VerifyAluKernel(SharedContext(), FindAluSpec("f32-div"), kThreads, 16));
}

}  // namespace
}  // namespace refract::suites::ceilings
