// Normalisation rows on the machine's adapter: RMSNorm, LayerNorm and add + RMSNorm, baseline
// and tuned (subgroup and portable reductions), at T = 1 and at hidden sizes that are no
// multiple of 4 (scalar path) or of a workgroup, against the CPU models; a planted LayerNorm
// that merges the per-invocation variances naively must be caught.
#include <gtest/gtest.h>

#include <ostream>
#include <set>
#include <string>

#include "base/error.h"
#include "suites/kernels/norm_benchmark.h"
#include "testing/planted_kernel.h"
#include "testing/shared_context.h"

namespace refract::suites::kernels {
namespace {

using reference::NormShape;
using refract::testing::PlantedKernel;
using refract::testing::SharedContext;

enum class Path { kBaseline, kSubgroup, kPortable };

struct Case {
  std::string name;
  NormKind kind;
  Path path;
  NormShape shape;
};

// gtest prints a case by its name (the test name's suffix), not as bytes.
void PrintTo(const Case& c, std::ostream* out) { *out << c.name; }

VerificationRecord RunRow(NormKind kind, Path path, const NormShape& shape,
                          std::map<std::string, double> overrides = {}) {
  KernelOptions options{.cold_footprint_bytes = 1,
                        .seed = 5,
                        .portable = path == Path::kPortable,
                        .overrides = std::move(overrides)};
  NormBenchmark row({.id = "norm-test"},
                    path == Path::kBaseline ? Variant::kBaseline : Variant::kTuned, kind, shape,
                    options);
  gpu::Context& context = SharedContext();
  row.Prepare(context);
  VerificationRecord record = row.Verify(context);
  context.RunPass(row.Dispatches(), 1, false);
  row.Release();
  return record;
}

std::vector<Case> Cases() {
  const NormShape decode{.rows = 1, .hidden = 896};
  const NormShape odd{.rows = 5, .hidden = 37};     // scalar elements, one partial warp
  const NormShape wide{.rows = 3, .hidden = 3000};  // vec4, 3 kept a thread, a partial tail
  std::vector<Case> cases;
  for (NormKind kind : {NormKind::kRmsNorm, NormKind::kLayerNorm, NormKind::kAddRmsNorm}) {
    const std::string name(NormKindName(kind) == "add-rmsnorm" ? "add_rmsnorm"
                                                               : NormKindName(kind));
    cases.push_back({name + "_baseline_decode", kind, Path::kBaseline, decode});
    cases.push_back({name + "_baseline_odd", kind, Path::kBaseline, odd});
    cases.push_back({name + "_subgroup_decode", kind, Path::kSubgroup, decode});
    cases.push_back({name + "_subgroup_odd", kind, Path::kSubgroup, odd});
    cases.push_back({name + "_subgroup_wide", kind, Path::kSubgroup, wide});
    cases.push_back({name + "_portable_odd", kind, Path::kPortable, odd});
    cases.push_back({name + "_portable_wide", kind, Path::kPortable, wide});
  }
  return cases;
}

class KernelsNorm : public ::testing::TestWithParam<Case> {};

TEST_P(KernelsNorm, MatchesTheModel) {
  const Case& c = GetParam();
  const uint64_t outputs = uint64_t{c.shape.rows} * c.shape.hidden;
  EXPECT_EQ(RunRow(c.kind, c.path, c.shape).elements,
            c.kind == NormKind::kAddRmsNorm ? 2 * outputs : outputs);
}

INSTANTIATE_TEST_SUITE_P(Shapes, KernelsNorm, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return info.param.name; });

TEST(KernelsNormTuned, RefusesARowTheRegistersCannotHold) {
  EXPECT_THROW(RunRow(NormKind::kRmsNorm, Path::kSubgroup, {.rows = 1, .hidden = 4096},
                      {{"WG", 32}, {"VPT", 4}}),
               UsageError);
}

TEST(KernelsNormCatalog, RowsHaveUniqueIdsAndByteMetrics) {
  std::set<std::string> ids;
  auto rows = NormBenchmarks();
  for (const auto& row : rows) {
    EXPECT_TRUE(ids.insert(row->info().id).second) << row->info().id;
    EXPECT_EQ(row->info().unit, "B/s");
  }
  EXPECT_EQ(rows.size(), 48u);
}

TEST(KernelsNormPlanted, LayerNormMergingVariancesWithoutTheMeanShiftIsCaught) {
  PlantedKernel planted("llm_norm_tuned", "own_m2 + count * shift * shift", "own_m2");
  EXPECT_THROW(RunRow(NormKind::kLayerNorm, Path::kSubgroup, {.rows = 3, .hidden = 896}),
               VerificationError);
}

}  // namespace
}  // namespace refract::suites::kernels
