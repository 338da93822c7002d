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
#include "testing/kernel_row.h"
#include "testing/planted_kernel.h"
#include "testing/shared_context.h"

namespace refract::suites::kernels {
namespace {

using reference::NormShape;
using refract::testing::PlantedKernel;
using refract::testing::RunRow;
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

// The tuned rows' subgroups axis fixed by the path (where the device has subgroups: a device
// without them runs the portable path for both).
VerificationRecord RunCase(NormKind kind, Path path, const NormShape& shape,
                           ops::Settings settings = {}) {
  if (path != Path::kBaseline && !settings.contains("subgroups")) {
    settings["subgroups"] = path == Path::kSubgroup && SharedContext().limits().subgroups ? 1 : 0;
  }
  NormBenchmark row({.id = "norm-test"},
                    path == Path::kBaseline ? Variant::kBaseline : Variant::kTuned, kind, shape,
                    {.cold_footprint_bytes = 1, .seed = 5, .settings = settings});
  return RunRow(row).record;
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
  EXPECT_EQ(RunCase(c.kind, c.path, c.shape).elements,
            c.kind == NormKind::kAddRmsNorm ? 2 * outputs : outputs);
}

INSTANTIATE_TEST_SUITE_P(Shapes, KernelsNorm, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return info.param.name; });

TEST(KernelsNormTuned, SkipsARowTheRegistersCannotHold) {
  EXPECT_THROW(RunCase(NormKind::kRmsNorm, Path::kSubgroup, {.rows = 1, .hidden = 4096},
                       {{"wg", 32}, {"vpt", 4}}),
               UsageError);
}

TEST(KernelsNormTuned, RecordsEveryAxisInItsParams) {
  NormBenchmark row({.id = "norm-test"}, Variant::kTuned, NormKind::kRmsNorm,
                    {.rows = 2, .hidden = 896},
                    {.cold_footprint_bytes = 1, .settings = {{"vpt", 7}}});
  const results::Params params = RunRow(row).params;
  EXPECT_EQ(params.at("vpt").AsInteger(), 7);
  EXPECT_GT(params.at("wg").AsInteger(), 0);
  EXPECT_EQ(params.at("subgroups").AsInteger(), SharedContext().limits().subgroups ? 1 : 0);
}

TEST(KernelsNormTuned, AMisspeltAxisIsNotIgnored) {
  NormBenchmark row({.id = "norm-test"}, Variant::kTuned, NormKind::kRmsNorm,
                    {.rows = 2, .hidden = 896}, {.settings = {{"VPT", 2}}});
  EXPECT_EQ(row.MissingRequirement(SharedContext()), "the tuned kernel has no axis named VPT");
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
  EXPECT_THROW(RunCase(NormKind::kLayerNorm, Path::kSubgroup, {.rows = 3, .hidden = 896}),
               VerificationError);
}

}  // namespace
}  // namespace refract::suites::kernels
