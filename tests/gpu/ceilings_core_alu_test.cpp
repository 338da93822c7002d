// The 15 core raw-ALU kernels (CoreAluRows) against their CPU models on the machine's Vulkan
// adapter (lavapipe without a GPU), at the tolerances the rows state.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "gpu/context.h"
#include "reference/alu_core_models.h"
#include "suites/ceilings/alu_row.h"
#include "suites/ceilings/core_alu_rows.h"
#include "testing/row_lookup.h"
#include "testing/shared_context.h"

namespace refract::suites::ceilings {
namespace {

using refract::testing::FindAluSpec;
using refract::testing::GtestName;
using refract::testing::SharedContext;

// Four workgroups: every operand pattern of the kernels that depends on idx & 1023 in steps of
// 256 (the vec4 lanes) is still exercised, and lavapipe runs the 15 rows in seconds.
constexpr uint32_t kThreads = 256;

class CoreAluRowTest : public ::testing::TestWithParam<AluRowSpec> {};

TEST_P(CoreAluRowTest, KernelMatchesTheModel) {
  const AluRowSpec& spec = GetParam();
  gpu::Context& context = SharedContext();
  if (std::optional<std::string> missing = bench::MissingRequirement(context, spec.needs)) {
    GTEST_SKIP() << spec.id << ": " << *missing;
  }
  // The knob's minimum and a larger count: a kernel that ignores the loop bound, or whose
  // chains drift from the model over more iterations, fails at one of them.
  for (uint32_t iterations : {16u, 48u}) {
    SCOPED_TRACE(spec.id + " at " + std::to_string(iterations) + " iterations");
    EXPECT_NO_THROW(VerifyAluKernel(context, spec, kThreads, iterations));
  }
}

INSTANTIATE_TEST_SUITE_P(Rows, CoreAluRowTest, ::testing::ValuesIn(CoreAluRows()),
                         [](const ::testing::TestParamInfo<AluRowSpec>& info) {
                           return GtestName(info.param.id);
                         });

TEST(CoreAluRows, TableMatchesTheCatalog) {
  ASSERT_EQ(CoreAluRows().size(), 15u);
  for (const AluRowSpec& spec : CoreAluRows()) {
    std::string kernel = "ceil_" + spec.id;
    for (char& c : kernel) {
      if (c == '-') c = '_';
    }
    EXPECT_EQ(spec.kernel, kernel);
    EXPECT_EQ(spec.threads, 1u << 20) << spec.id;
    EXPECT_TRUE(spec.model) << spec.id;
  }
  EXPECT_EQ(FindAluSpec("f16-fma-vec4").ops_per_iteration, 256u);
  EXPECT_EQ(FindAluSpec("i32-mad-mat4").default_iterations, 1024u);
  EXPECT_EQ(FindAluSpec("u8-dp4a").output, OutputType::kU32);
}

// A test must be able to fail: the real f32-fma-scalar kernel against a model that runs one
// iteration more than it is asked to.
TEST(CoreAluPlantedError, ModelOffByOneIterationIsCaught) {
  AluRowSpec spec = FindAluSpec("f32-fma-scalar");
  spec.model = [](uint32_t threads, uint32_t iterations) {
    return reference::FmaScalarModel(reference::Precision::kF32, threads, iterations + 1);
  };
  EXPECT_THROW(VerifyAluKernel(SharedContext(), spec, kThreads, 16), VerificationError);
  EXPECT_THROW(VerifyAluKernel(SharedContext(), spec, kThreads, 48), VerificationError);
}

// The integer check is exact: a model off by one in a single thread's output is caught.
TEST(CoreAluPlantedError, OneWrongIntegerIsCaught) {
  AluRowSpec spec = FindAluSpec("i32-mad-scalar");
  spec.model = [](uint32_t threads, uint32_t iterations) {
    std::vector<double> out = reference::I32MadScalarModel(threads, iterations);
    out[threads / 2] += 1;
    return out;
  };
  EXPECT_THROW(VerifyAluKernel(SharedContext(), spec, kThreads, 16), VerificationError);
}

}  // namespace
}  // namespace refract::suites::ceilings
