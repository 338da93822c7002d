// RoPE rows on the machine's adapter: both variants against the CPU model (adjacent pairs),
// with q and k head counts that differ (GQA) and head counts no multiple of the tuned kernel's
// heads a thread, T = 1 at a large position, head_dim 64 and 256.
#include <gtest/gtest.h>

#include <ostream>
#include <set>
#include <string>

#include "base/error.h"
#include "suites/kernels/rope_benchmark.h"
#include "testing/kernel_row.h"
#include "testing/planted_kernel.h"
#include "testing/shared_context.h"

namespace refract::suites::kernels {
namespace {

using reference::RopeShape;
using refract::testing::PlantedKernel;
using refract::testing::RunRow;
using refract::testing::SharedContext;

struct Case {
  std::string name;
  RopeShape shape;
  ops::Settings settings = {};
};

// gtest prints a case by its name (the test name's suffix), not as bytes.
void PrintTo(const Case& c, std::ostream* out) { *out << c.name; }

VerificationRecord RunCase(Variant variant, const RopeShape& shape, ops::Settings settings = {}) {
  RopeBenchmark row({.id = "rope-test"}, variant, shape,
                    {.cold_footprint_bytes = 1, .seed = 9, .settings = std::move(settings)});
  return RunRow(row).record;
}

uint64_t Values(const RopeShape& s) {
  return uint64_t{s.seq_len} * (s.heads + s.kv_heads) * s.head_dim;
}

std::vector<Case> Cases() {
  return {
      {"qwen_decode",
       {.seq_len = 1,
        .heads = 14,
        .kv_heads = 2,
        .head_dim = 64,
        .position_offset = 4095,
        .base = 1e6f}},
      {"qwen_prefill_t37",
       {.seq_len = 37, .heads = 14, .kv_heads = 2, .head_dim = 64, .base = 1e6f}},
      {"gemma_t9", {.seq_len = 9, .heads = 4, .kv_heads = 2, .head_dim = 256, .base = 1e4f}},
      {"gqa7_hpt3_partial_group",
       {.seq_len = 5, .heads = 7, .kv_heads = 1, .head_dim = 64, .position_offset = 3},
       {{"hpt", 3}, {"wg", 64}}},
  };
}

class KernelsRope : public ::testing::TestWithParam<Case> {};

TEST_P(KernelsRope, BaselineMatchesTheModel) {
  EXPECT_EQ(RunCase(Variant::kBaseline, GetParam().shape).elements, Values(GetParam().shape));
}

TEST_P(KernelsRope, TunedMatchesTheModel) {
  EXPECT_EQ(RunCase(Variant::kTuned, GetParam().shape, GetParam().settings).elements,
            Values(GetParam().shape));
}

INSTANTIATE_TEST_SUITE_P(Shapes, KernelsRope, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return info.param.name; });

TEST(KernelsRopeTuned, SkipsAHeadDimThatIsNoMultipleOfFour) {
  RopeBenchmark row({.id = "x"}, Variant::kTuned, {.head_dim = 6});
  const std::string missing = row.MissingRequirement(SharedContext()).value_or("(none)");
  EXPECT_NE(missing.find("head_dim must be a multiple of 4"), std::string::npos) << missing;
}

TEST(KernelsRopeTuned, VerifiesFreshDataAfterTimedRunsRotatedIt) {
  // Timed passes rotate q and k in place: Verify uploads them afresh before its own run.
  for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
    RopeBenchmark row({.id = "rope-test"}, variant, Cases()[1].shape, {.cold_footprint_bytes = 1});
    row.Prepare(SharedContext());
    SharedContext().RunPass(row.Dispatches(), 3, false);
    EXPECT_EQ(row.Verify(SharedContext()).elements, Values(Cases()[1].shape));
    row.Release();
  }
}

TEST(KernelsRopeCatalog, RowsHaveUniqueIds) {
  std::set<std::string> ids;
  for (const auto& row : RopeBenchmarks()) EXPECT_TRUE(ids.insert(row->info().id).second);
  EXPECT_EQ(ids.size(), 16u);
}

TEST(KernelsRopePlanted, RotateHalfPairingIsCaught) {
  // Pairs (i, i + d/2) instead of adjacent ones: the vec4's partner lanes are swapped.
  PlantedKernel planted("llm_rope_tuned", "x.x * c.x - x.y * s.x, x.x * s.x + x.y * c.x",
                        "x.x * c.x - x.z * s.x, x.x * s.x + x.z * c.x");
  EXPECT_THROW(RunCase(Variant::kTuned, Cases()[1].shape), VerificationError);
}

}  // namespace
}  // namespace refract::suites::kernels
