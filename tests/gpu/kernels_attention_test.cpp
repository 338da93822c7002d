// Attention rows on the machine's adapter: both variants against the CPU model at small shapes
// (T = 1, S = 1, sizes that are no multiple of a tile, GQA ratios 1, 2, 4, 7, head_dim 64, 256
// and 512, the split-K decode path), and planted wrong tuned kernels that Verify must catch.
#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "base/error.h"
#include "suites/kernels/attention_benchmark.h"
#include "testing/planted_kernel.h"
#include "testing/shared_context.h"

namespace refract::suites::kernels {
namespace {

using reference::AttentionShape;
using refract::testing::PlantedKernel;
using refract::testing::SharedContext;

struct Case {
  std::string name;
  AttentionShape shape;
  std::map<std::string, double> overrides = {};
};

// gtest prints a case by its name (the test name's suffix), not as bytes.
void PrintTo(const Case& c, std::ostream* out) { *out << c.name; }

// Prepare, Verify, and one run of the timed dispatches, as the suite does.
VerificationRecord RunRow(Variant variant, const AttentionShape& shape,
                          std::map<std::string, double> overrides = {}) {
  KernelOptions options{.cold_footprint_bytes = 1, .seed = 7, .overrides = std::move(overrides)};
  AttentionBenchmark row({.id = "attention-test"}, variant, shape, options);
  gpu::Context& context = SharedContext();
  EXPECT_FALSE(row.MissingRequirement(context).has_value());
  row.Prepare(context);
  VerificationRecord record = row.Verify(context);
  context.RunPass(row.Dispatches(), 1, false);
  row.Release();
  return record;
}

AttentionShape Decode(uint32_t s, uint32_t heads, uint32_t kv_heads, uint32_t d) {
  return {.seq_len = 1,
          .kv_len = s,
          .heads = heads,
          .kv_heads = kv_heads,
          .head_dim = d,
          .position_offset = s - 1};
}
AttentionShape Prefill(uint32_t t, uint32_t heads, uint32_t kv_heads, uint32_t d,
                       bool causal = true) {
  return {.seq_len = t,
          .kv_len = t,
          .heads = heads,
          .kv_heads = kv_heads,
          .head_dim = d,
          .causal = causal};
}

std::vector<Case> CausalCases() {
  return {
      {"decode_s1_gqa7_d64", Decode(1, 7, 1, 64)},
      {"decode_s150_gqa7_d64", Decode(150, 14, 2, 64)},
      {"decode_s300_gqa2_d256", Decode(300, 4, 2, 256)},
      {"prefill_t19_gqa1_d64", Prefill(19, 2, 2, 64)},
      {"prefill_t23_gqa4_d256", Prefill(23, 4, 1, 256)},
      {"cache_t5_s13_gqa2_d64",
       {.seq_len = 5,
        .kv_len = 13,
        .heads = 4,
        .kv_heads = 2,
        .head_dim = 64,
        .position_offset = 8}},
  };
}

class KernelsAttentionCausal : public ::testing::TestWithParam<Case> {};

TEST_P(KernelsAttentionCausal, BaselineMatchesTheModel) {
  EXPECT_GT(RunRow(Variant::kBaseline, GetParam().shape).elements, 0u);
}

TEST_P(KernelsAttentionCausal, TunedMatchesTheModel) {
  EXPECT_GT(RunRow(Variant::kTuned, GetParam().shape).elements, 0u);
}

INSTANTIATE_TEST_SUITE_P(Shapes, KernelsAttentionCausal, ::testing::ValuesIn(CausalCases()),
                         [](const auto& info) { return info.param.name; });

class KernelsAttentionTunedOnly : public ::testing::TestWithParam<Case> {};

TEST_P(KernelsAttentionTunedOnly, MatchesTheModel) {
  EXPECT_GT(RunRow(Variant::kTuned, GetParam().shape, GetParam().overrides).elements, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, KernelsAttentionTunedOnly,
    ::testing::Values(
        Case{"encoder_t21_gqa2_d256", Prefill(21, 4, 2, 256, false)},
        Case{"encoder_t9_gqa4_d512", Prefill(9, 4, 1, 512, false)},
        Case{"prefill_t30_split_v1", Prefill(30, 7, 1, 64), {{"SPLIT_KEYS", 12}, {"V_TILES", 1}}},
        Case{"prefill_t17_small_tiles",
             Prefill(17, 4, 2, 64),
             {{"TR", 4}, {"TC", 8}, {"RQ", 3}, {"RK", 3}, {"V_TILES", 1}}}),
    [](const auto& info) { return info.param.name; });

TEST(KernelsAttention, BaselineRefusesANonCausalShape) {
  EXPECT_THROW(AttentionBenchmark({.id = "x"}, Variant::kBaseline, Prefill(4, 1, 1, 64, false)),
               UsageError);
}

TEST(KernelsAttention, TilesThatDoNotFitAreRefusedNamingTheLimit) {
  AttentionBenchmark row({.id = "x"}, Variant::kTuned, Prefill(4, 1, 1, 512),
                         {.cold_footprint_bytes = 1, .overrides = {{"TR", 64}, {"RQ", 4}}});
  try {
    row.Prepare(SharedContext());
    ADD_FAILURE() << "no error";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("maxComputeWorkgroupStorageSize"), std::string::npos);
  }
}

TEST(KernelsAttention, CatalogRowsHaveUniqueIdsAndFlopMetrics) {
  auto rows = AttentionBenchmarks();
  std::set<std::string> ids;
  for (const auto& row : rows) {
    EXPECT_TRUE(ids.insert(row->info().id).second) << row->info().id;
    EXPECT_EQ(row->info().unit, "FLOP/s");
    EXPECT_GT(row->Cost().flops, 0);
  }
  EXPECT_EQ(rows.size(), 13u);
}

// Planted wrong tuned kernels: Verify must throw.
void ExpectCaught(const AttentionShape& shape, std::string_view from, std::string_view to) {
  PlantedKernel planted("llm_attention_tuned", from, to);
  EXPECT_THROW(RunRow(Variant::kTuned, shape), VerificationError);
}

TEST(KernelsAttentionPlanted, PrefillWithoutTheCausalMaskIsCaught) {
  ExpectCaught(Prefill(19, 4, 2, 64), "if (params.causal == 0u) {", "if (true) {");
}

TEST(KernelsAttentionPlanted, OnlineSoftmaxWithoutTheMaxSubtractionOverflows) {
  PlantedKernel planted("llm_attention_tuned", "let alpha = exp2(state.m[i] - m_new);",
                        "let alpha = 1.0; m_new = 0.0;");
  EXPECT_THROW(RunRow(Variant::kTuned, Prefill(19, 4, 2, 64)), VerificationError);
}

TEST(KernelsAttentionPlanted, DroppedTailTileIsCaught) {
  ExpectCaught(Decode(300, 7, 1, 64), "tile < end; tile += BK", "tile + BK <= end; tile += BK");
}

}  // namespace
}  // namespace refract::suites::kernels
