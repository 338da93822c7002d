// Activation rows on the machine's adapter: SiLU, GELU and silu(gate) · up, baseline and tuned,
// at counts that are multiples of 4 (vec4) and not (scalar), against the CPU models.
#include <gtest/gtest.h>

#include <ostream>
#include <set>
#include <string>

#include "base/error.h"
#include "suites/kernels/activation_benchmark.h"
#include "testing/kernel_row.h"
#include "testing/planted_kernel.h"

namespace refract::suites::kernels {
namespace {

using refract::testing::PlantedKernel;
using refract::testing::RunRow;

struct Case {
  std::string name;
  ActivationKind kind;
  Variant variant;
  uint64_t count;
};

// gtest prints a case by its name (the test name's suffix), not as bytes.
void PrintTo(const Case& c, std::ostream* out) { *out << c.name; }

VerificationRecord RunCase(const Case& c) {
  ActivationBenchmark row({.id = "activation-test"}, c.variant, c.kind, c.count,
                          {.cold_footprint_bytes = 1, .seed = 11});
  return RunRow(row).record;
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (ActivationKind kind :
       {ActivationKind::kSilu, ActivationKind::kGelu, ActivationKind::kSiluMul}) {
    std::string name(ActivationKindName(kind));
    if (kind == ActivationKind::kSiluMul) name = "silu_mul";
    cases.push_back({name + "_baseline_decode", kind, Variant::kBaseline, 4864});
    cases.push_back({name + "_baseline_odd", kind, Variant::kBaseline, 3 * 2047});
    cases.push_back({name + "_tuned_decode", kind, Variant::kTuned, 4864});
    cases.push_back({name + "_tuned_vec4_tail", kind, Variant::kTuned, 5 * 2052});
    cases.push_back({name + "_tuned_odd", kind, Variant::kTuned, 3 * 2047});
  }
  return cases;
}

class KernelsActivation : public ::testing::TestWithParam<Case> {};

TEST_P(KernelsActivation, MatchesTheModel) {
  EXPECT_EQ(RunCase(GetParam()).elements, GetParam().count);
}

INSTANTIATE_TEST_SUITE_P(Counts, KernelsActivation, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return info.param.name; });

TEST(KernelsActivationCatalog, RowsHaveUniqueIds) {
  std::set<std::string> ids;
  for (const auto& row : ActivationBenchmarks()) EXPECT_TRUE(ids.insert(row->info().id).second);
  EXPECT_EQ(ids.size(), 48u);
}

TEST(KernelsActivationPlanted, GeluWithoutTheCubicTermIsCaught) {
  PlantedKernel planted("llm_activation_tuned", "(v + GELU_COEFF * v * v * v)", "v");
  EXPECT_THROW(RunCase({"gelu", ActivationKind::kGelu, Variant::kTuned, 4096}), VerificationError);
}

}  // namespace
}  // namespace refract::suites::kernels
