// Softmax rows on the machine's adapter: both variants and both reduction paths against the
// CPU model (rows of 1, of lengths that are no multiple of 4 or of a workgroup, rows longer
// than the registers hold), and a planted tuned kernel without the max subtraction.
#include <gtest/gtest.h>

#include <ostream>
#include <set>
#include <string>

#include "base/error.h"
#include "suites/kernels/softmax_benchmark.h"
#include "testing/kernel_row.h"
#include "testing/planted_kernel.h"
#include "testing/shared_context.h"

namespace refract::suites::kernels {
namespace {

using refract::testing::PlantedKernel;
using refract::testing::RowRun;
using refract::testing::RunRow;
using refract::testing::SharedContext;

struct Case {
  std::string name;
  SoftmaxShape shape;
  ops::Settings settings = {};
};

// gtest prints a case by its name (the test name's suffix), not as bytes.
void PrintTo(const Case& c, std::ostream* out) { *out << c.name; }

// `portable`: the tuned row's reductions through workgroup memory (subgroups 0).
VerificationRecord RunCase(Variant variant, const SoftmaxShape& shape, bool portable,
                           ops::Settings settings = {}) {
  if (variant == Variant::kTuned && portable) settings["subgroups"] = 0;
  SoftmaxBenchmark row({.id = "softmax-test"}, variant, shape,
                       {.cold_footprint_bytes = 1, .seed = 3, .settings = settings});
  return RunRow(row).record;
}

uint64_t Values(const SoftmaxShape& shape) { return uint64_t{shape.rows} * shape.row_size; }

std::vector<Case> Cases() {
  return {
      {"one_value", {.rows = 3, .row_size = 1}},
      {"row_50", {.rows = 21, .row_size = 50}},
      {"row_4100", {.rows = 4, .row_size = 4100}},
      // Longer than WG 32 x VPT 2 x 4 keep: the rest is read again.
      {"row_1300_streamed", {.rows = 6, .row_size = 1300}, {{"wg", 32}, {"vpt", 2}}},
  };
}

class KernelsSoftmax : public ::testing::TestWithParam<Case> {};

TEST_P(KernelsSoftmax, BaselineMatchesTheModel) {
  EXPECT_EQ(RunCase(Variant::kBaseline, GetParam().shape, false).elements,
            Values(GetParam().shape));
}

TEST_P(KernelsSoftmax, TunedMatchesTheModel) {
  EXPECT_EQ(RunCase(Variant::kTuned, GetParam().shape, false, GetParam().settings).elements,
            Values(GetParam().shape));
}

TEST_P(KernelsSoftmax, TunedPortableMatchesTheModel) {
  EXPECT_EQ(RunCase(Variant::kTuned, GetParam().shape, true, GetParam().settings).elements,
            Values(GetParam().shape));
}

INSTANTIATE_TEST_SUITE_P(Shapes, KernelsSoftmax, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return info.param.name; });

TEST(KernelsSoftmaxCatalog, RowsHaveUniqueIdsAndByteMetrics) {
  std::set<std::string> ids;
  auto rows = SoftmaxBenchmarks();
  for (const auto& row : rows) {
    EXPECT_TRUE(ids.insert(row->info().id).second) << row->info().id;
    EXPECT_EQ(row->info().unit, "B/s");
  }
  EXPECT_EQ(rows.size(), 12u);
}

TEST(KernelsSoftmaxCatalog, ARowAboveTheBindingLimitNamesIt) {
  // 28,672 rows of 2048 (235 MB): above lavapipe's 128 MiB, within the H200's 4 GiB.
  gpu::Context& context = SharedContext();
  SoftmaxBenchmark row({.id = "x"}, Variant::kTuned, {.rows = 28672, .row_size = 2048});
  const bool fits = uint64_t{4} * 28672 * 2048 <= context.limits().max_storage_buffer_binding_size;
  EXPECT_EQ(row.MissingRequirement(context).has_value(), !fits);
}

TEST(KernelsSoftmaxTuned, KeepsItsTargetOfElementsAnInvocationByDefault) {
  // The rule (the H200's best, docs/results/archive/NOTEBOOK.md): each invocation keeps the
  // kernel's target of vec4 and the workgroup covers the row, so it is read once.
  const uint32_t target = ops::kSoftmaxRowKernel.kept_target;
  SoftmaxBenchmark row({.id = "softmax-layout"}, Variant::kTuned, {.rows = 2, .row_size = 2048},
                       KernelOptions{.cold_footprint_bytes = 1});
  const RowRun run = RunRow(row);
  EXPECT_EQ(run.params.at("vpt").AsInteger(), target);
  EXPECT_GE(run.params.at("wg").AsInteger() * run.params.at("vpt").AsInteger() * 4, 2048);
  EXPECT_EQ(run.record.elements, 2u * 2048u);
}

TEST(KernelsSoftmaxTuned, RefusesAnUnknownAxis) {
  EXPECT_THROW(RunCase(Variant::kTuned, {.rows = 1, .row_size = 8}, false, {{"vtp", 2}}),
               UsageError);
}

TEST(KernelsSoftmaxPlanted, WithoutTheMaxSubtractionLargeLogitsOverflow) {
  PlantedKernel planted("llm_softmax_tuned", "return exp(x - V(m));", "return exp(x);");
  for (bool portable : {false, true}) {
    EXPECT_THROW(RunCase(Variant::kTuned, {.rows = 8, .row_size = 256}, portable),
                 VerificationError);
  }
}

}  // namespace
}  // namespace refract::suites::kernels
