// Attention rows on the machine's adapter: both variants against the CPU model at small shapes
// (T = 1, S = 1, sizes that are no multiple of a tile, GQA ratios 1, 2, 4, 7, head_dim 64, 256
// and 512, the split-K decode path), and planted wrong tuned kernels that Verify must catch.
#include <gtest/gtest.h>

#include <ostream>
#include <set>
#include <string>

#include "base/error.h"
#include "ops/op_support.h"
#include "suites/kernels/attention_benchmark.h"
#include "testing/kernel_row.h"
#include "testing/planted_kernel.h"
#include "testing/shared_context.h"

namespace refract::suites::kernels {
namespace {

using reference::AttentionShape;
using refract::testing::PlantedKernel;
using refract::testing::RunRow;
using refract::testing::SharedContext;

struct Case {
  std::string name;
  AttentionShape shape;
  ops::Settings settings = {};
};

// gtest prints a case by its name (the test name's suffix), not as bytes.
void PrintTo(const Case& c, std::ostream* out) { *out << c.name; }

VerificationRecord RunCase(Variant variant, const AttentionShape& shape,
                           ops::Settings settings = {}) {
  AttentionBenchmark row({.id = "attention-test"}, variant, shape,
                         {.cold_footprint_bytes = 1, .seed = 7, .settings = std::move(settings)});
  return RunRow(row).record;
}

uint64_t Outputs(const AttentionShape& s) { return uint64_t{s.seq_len} * s.heads * s.head_dim; }

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
  EXPECT_EQ(RunCase(Variant::kBaseline, GetParam().shape).elements, Outputs(GetParam().shape));
}

TEST_P(KernelsAttentionCausal, TunedMatchesTheModel) {
  EXPECT_EQ(RunCase(Variant::kTuned, GetParam().shape).elements, Outputs(GetParam().shape));
}

INSTANTIATE_TEST_SUITE_P(Shapes, KernelsAttentionCausal, ::testing::ValuesIn(CausalCases()),
                         [](const auto& info) { return info.param.name; });

class KernelsAttentionTunedOnly : public ::testing::TestWithParam<Case> {};

TEST_P(KernelsAttentionTunedOnly, MatchesTheModel) {
  EXPECT_EQ(RunCase(Variant::kTuned, GetParam().shape, GetParam().settings).elements,
            Outputs(GetParam().shape));
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, KernelsAttentionTunedOnly,
    ::testing::Values(
        Case{"encoder_t21_gqa2_d256", Prefill(21, 4, 2, 256, false)},
        Case{"encoder_t9_gqa4_d512", Prefill(9, 4, 1, 512, false)},
        Case{"prefill_t30_split_v1", Prefill(30, 7, 1, 64), {{"split_keys", 12}, {"v_tiles", 1}}},
        Case{"prefill_t17_small_tiles",
             Prefill(17, 4, 2, 64),
             {{"tr", 4}, {"tc", 8}, {"rq", 3}, {"rk", 3}, {"v_tiles", 1}}}),
    [](const auto& info) { return info.param.name; });

TEST(KernelsAttention, BaselineSkipsANonCausalShape) {
  AttentionBenchmark row({.id = "x"}, Variant::kBaseline, Prefill(4, 1, 1, 64, false));
  const std::string missing = row.MissingRequirement(SharedContext()).value_or("(none)");
  EXPECT_NE(missing.find("no non-causal form"), std::string::npos) << missing;
}

TEST(KernelsAttention, TilesThatDoNotFitAreSkippedNamingTheLimit) {
  AttentionBenchmark row({.id = "x"}, Variant::kTuned, Prefill(4, 1, 1, 512),
                         {.cold_footprint_bytes = 1, .settings = {{"tr", 64}, {"rq", 4}}});
  const std::string missing = row.MissingRequirement(SharedContext()).value_or("(none)");
  EXPECT_NE(missing.find("maxComputeWorkgroupStorageSize"), std::string::npos) << missing;
  EXPECT_THROW(row.Prepare(SharedContext()), UsageError);
}

TEST(KernelsAttention, ParamsCarryEveryAxisOfThePathsOp) {
  // Prefill (T > 1): the flash kernel's tiles; one query position: the decode kernel's axes.
  AttentionBenchmark prefill({.id = "x"}, Variant::kTuned, Prefill(19, 4, 2, 64),
                             {.cold_footprint_bytes = 1});
  results::Params params = RunRow(prefill).params;
  EXPECT_EQ(params.at("path").AsText(), "flash");
  for (const char* axis : {"tr", "tc", "rq", "rk", "v_tiles", "split_keys", "splits"}) {
    EXPECT_TRUE(params.contains(axis)) << axis;
  }
  AttentionBenchmark decode({.id = "x"}, Variant::kTuned, Decode(300, 7, 1, 64),
                            {.cold_footprint_bytes = 1});
  params = RunRow(decode).params;
  EXPECT_EQ(params.at("path").AsText(), "decode");
  for (const char* axis :
       {"wg", "splits", "subgroups", "merge_wg", "online", "v_tile", "keys", "k_tile", "merge"}) {
    EXPECT_TRUE(params.contains(axis)) << axis;
  }
  EXPECT_GT(params.at("splits").AsInteger(), 1);  // decode splits its keys
}

// Decode cases: each must verify against the CPU model (on the subgroup reduction only where the
// device has subgroups).
struct DecodeCase {
  AttentionShape shape;
  ops::Settings settings;
};

void ExpectDecodeCasesVerify(std::initializer_list<DecodeCase> cases) {
  for (const DecodeCase& c : cases) {
    ops::Settings settings = c.settings;
    if (!SharedContext().limits().subgroups) {
      settings["subgroups"] = 0;
      settings.erase("online");  // its statistics need subgroups
    }
    SCOPED_TRACE("S=" + std::to_string(c.shape.kv_len) + " d=" + std::to_string(c.shape.head_dim) +
                 " " + ops::SettingsText(settings));
    EXPECT_EQ(RunCase(Variant::kTuned, c.shape, settings).elements, Outputs(c.shape));
  }
}

// The key-an-invocation split (v_tile 0) and the lanes' merge (merge 0): S not a multiple
// of the splits or of the workgroup, S = 1, GQA 8, 7, 5, 3, 2 and 1, both reductions. Each new
// set of constants compiles on lavapipe for 7-60 s, so each case takes one reduction and cases
// share constants where they can (Mesa's shader cache then compiles once); head_dim 512 (70 s)
// is left to the axis rules' tests: it runs the same chunk loops as 256, twice as long.
TEST(KernelsAttentionDecode, SplitsOfAnySize) {
  ExpectDecodeCasesVerify({
      {Decode(301, 14, 2, 64),
       {{"v_tile", 0}, {"wg", 32}, {"splits", 10}, {"subgroups", 1}}},  // last split 22
      // Online statistics: several subgroups, a split partly empty (301 = 2 · 128 + 45), GQA 5.
      {Decode(301, 10, 2, 64),
       {{"wg", 128}, {"splits", 3}, {"subgroups", 1}, {"online", 1}, {"merge", 0}}},
      {Decode(301, 6, 2, 64),
       {{"v_tile", 0}, {"splits", 7}, {"subgroups", 0}}},  // GQA 3, 43 of 64 invocations
      // The GQA 8 case's pipelines: compiled once.
      {Decode(1, 16, 2, 64), {{"v_tile", 0}, {"subgroups", 1}, {"merge", 0}}},
      // Empty splits, more than the merge's 4 lanes take in a step of 4 and than its invocations.
      {Decode(77, 2, 2, 64), {{"v_tile", 0}, {"splits", 100}, {"subgroups", 1}, {"merge_wg", 64}}},
      {Decode(301, 10, 2, 64),
       {{"v_tile", 0},
        {"wg", 128},
        {"splits", 3},
        {"subgroups", 1},
        {"merge_wg", 256},
        {"merge", 0}}},  // GQA 5
      {Decode(100, 16, 2, 64),
       {{"v_tile", 0}, {"subgroups", 1}, {"merge", 0}}},  // GQA 8: every head slot used
  });
}

// The V-tile split (v_tile 1) and the flat merge: a last split shorter than the rest (301 in
// splits of 16: 13), S = 1, empty splits (77 in 30 splits of 3), GQA 5 and 3 (idle head slots),
// head_dim 48 (12 columns, a key chunk of 16 holding 12) with more (head, column)s than
// invocations, key lanes sharing a (head, column) (GQA 2, 128 invocations), head_dim 256 (four
// key chunks), and the flat merge over 19 and 30 splits.
TEST(KernelsAttentionDecode, TiledSplitsOfAnySize) {
  ExpectDecodeCasesVerify({
      {Decode(301, 10, 2, 64), {{"keys", 16}, {"splits", 19}, {"merge", 1}}},
      {Decode(1, 7, 1, 64), {{"v_tile", 1}}},
      {Decode(77, 2, 2, 64), {{"keys", 4}, {"splits", 30}, {"merge", 1}}},
      {Decode(150, 6, 2, 48), {{"keys", 8}, {"wg", 32}}},
      {Decode(200, 4, 2, 64), {{"keys", 32}, {"wg", 128}}},
      {Decode(300, 4, 2, 256), {{"v_tile", 1}}},
  });
}

// The subgroup merge (merge 2): more splits than a subgroup's lanes (each lane folding several,
// online, four a trip), empty splits (77 keys in 30 splits of 3), GQA 5 and 1, and head_dim 48,
// whose 72 (head, column) pairs leave the last workgroup partly idle (merge_wg 128: 16 pairs a
// workgroup on lavapipe's 8-wide subgroups, 4 on 32-wide ones). The splits are
// TiledSplitsOfAnySize's, so their pipelines are compiled once.
TEST(KernelsAttentionDecode, SubgroupMergeOfAnySplitCount) {
  if (ops::FixedSubgroupSize(SharedContext().limits()) == 0) {
    GTEST_SKIP() << "the device has no subgroups of one size";
  }
  ExpectDecodeCasesVerify({
      {Decode(301, 10, 2, 64), {{"keys", 16}, {"splits", 19}, {"merge", 2}}},
      {Decode(77, 2, 2, 64), {{"keys", 4}, {"splits", 30}, {"merge", 2}, {"merge_wg", 32}}},
      {Decode(150, 6, 2, 48), {{"keys", 8}, {"wg", 32}, {"merge", 2}, {"merge_wg", 128}}},
      {Decode(1, 7, 1, 64), {{"v_tile", 1}, {"merge", 2}}},
      // 100 splits (SplitsOfAnySize's): 13 steps a lane on 8-wide subgroups, four trips.
      {Decode(77, 2, 2, 64), {{"v_tile", 0}, {"splits", 100}, {"subgroups", 1}, {"merge", 2}}},
  });
}

// The V-tile split with its K slice in workgroup memory too (k_tile 1): TiledSplitsOfAnySize's
// shapes — a short last split, empty splits, head_dim 48 (a key chunk read clamped from a
// 12-column row) and 256 (four chunks of a row) — and GQA 2 with key lanes.
TEST(KernelsAttentionDecode, TiledSplitsWithTheirKeysInWorkgroupMemory) {
  ExpectDecodeCasesVerify({
      {Decode(301, 10, 2, 64), {{"keys", 16}, {"splits", 19}, {"k_tile", 1}}},
      {Decode(77, 2, 2, 64), {{"keys", 4}, {"splits", 30}, {"k_tile", 1}}},
      {Decode(150, 6, 2, 48), {{"keys", 8}, {"wg", 32}, {"k_tile", 1}}},
      {Decode(200, 4, 2, 64), {{"keys", 32}, {"wg", 128}, {"k_tile", 1}}},
      {Decode(300, 4, 2, 256), {{"k_tile", 1}}},
  });
}

// head_dim 48 (12 columns: 5 lanes of 64 invocations, 4 idle; a key chunk of 16 holding 12; 13
// keys a lane, a V chunk holding 13) and 256 (four key chunks, four lanes).
TEST(KernelsAttentionDecode, HeadsOfOddAndWideSize) {
  ExpectDecodeCasesVerify({
      // The causal test's d 256 pipelines (GQA 2, wg 64, subgroups), compiled once.
      {Decode(200, 4, 2, 256),
       {{"v_tile", 0}, {"wg", 64}, {"splits", 4}, {"subgroups", 1}, {"merge", 0}}},
      {Decode(150, 2, 1, 48),
       {{"v_tile", 0}, {"wg", 64}, {"splits", 3}, {"subgroups", 1}, {"merge", 0}}},
  });
}

// --time-dispatch: the call still verified whole, one of its two dispatches a copy timed.
TEST(KernelsAttentionDecode, TimesOneDispatchOfTheCallWhenAsked) {
  const AttentionShape shape = Decode(100, 16, 2, 64);  // SplitsOfAnySize's GQA 8 pipelines
  const KernelOptions options{
      .cold_footprint_bytes = 1,
      .seed = 7,
      .settings = {{"subgroups", SharedContext().limits().subgroups}, {"v_tile", 0}, {"merge", 0}},
      .time_dispatch = 1};
  AttentionBenchmark merge_only({.id = "x"}, Variant::kTuned, shape, options);
  merge_only.Prepare(SharedContext());
  EXPECT_EQ(merge_only.Verify(SharedContext()).elements, Outputs(shape));
  EXPECT_EQ(merge_only.Dispatches().size(), 1u);
  EXPECT_EQ(merge_only.info().params.at("timed_dispatch").AsText(), "1 of 2");
  KernelOptions past = options;
  past.time_dispatch = 2;
  AttentionBenchmark third({.id = "x"}, Variant::kTuned, shape, past);
  try {
    third.Prepare(SharedContext());
    ADD_FAILURE() << "a third dispatch of a two-dispatch call was timed";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("a call has 2 dispatch(es)"), std::string::npos);
  }
}

TEST(KernelsAttentionDecode, SkipsWhatItCannotHold) {
  AttentionBenchmark wide_group({.id = "x"}, Variant::kTuned, Decode(64, 9, 1, 64), {});
  EXPECT_NE(wide_group.MissingRequirement(SharedContext()).value_or("").find("at most 8"),
            std::string::npos);
  AttentionBenchmark few({.id = "x"}, Variant::kTuned, Decode(64, 8, 1, 512),
                         {.settings = {{"wg", 32}}});  // 128 vec4 columns over 32 × 2
  EXPECT_NE(
      few.MissingRequirement(SharedContext()).value_or("").find("covers head_dim 128 at most"),
      std::string::npos);
  AttentionBenchmark long_splits({.id = "x"}, Variant::kTuned, Decode(300, 7, 1, 64),
                                 {.settings = {{"wg", 64}, {"splits", 4}}});  // 75 keys each
  EXPECT_NE(long_splits.MissingRequirement(SharedContext()).value_or("").find("exceed wg 64"),
            std::string::npos);
}

// The online statistics: each subgroup's probabilities against its own max, rescaled to the
// workgroup's. Without that rescale a subgroup that lacks the dominant key weighs too much.
// 128 invocations: at least two subgroups on any device (subgroups are at most 64 wide here
// and on the GPUs refract runs on); GQA 5, so both head groups.
TEST(KernelsAttentionPlanted, DecodeSplitWithoutTheSubgroupsRescaleIsCaught) {
  if (!SharedContext().limits().subgroups) GTEST_SKIP() << "the device has no subgroups";
  PlantedKernel planted("llm_attention_stats_subgroup_part",
                        "q_lo * exp2(sm_lo - m_lo), q_hi * exp2(sm_hi - m_hi)", "q_lo, q_hi");
  EXPECT_THROW(
      RunCase(Variant::kTuned, Decode(301, 10, 2, 64),
              {{"wg", 128}, {"splits", 3}, {"subgroups", 1}, {"merge_wg", 256}, {"online", 1}}),
      VerificationError);
}

TEST(KernelsAttentionPlanted, DecodeMergeWithoutEachSplitsMaxIsCaught) {
  // Each split's dominant key weighs the same as the others' whatever their maxima: the
  // 96-logit rows of the inputs come out wrong.
  PlantedKernel planted("llm_attention_decode", "o += o0 * w0 + o1 * w1 + o2 * w2 + o3 * w3;",
                        "o += o0 + o1 * sign(w1) + o2 * sign(w2) + o3 * sign(w3);");
  EXPECT_THROW(RunCase(Variant::kTuned, Decode(300, 14, 2, 64), {{"v_tile", 0}, {"splits", 5}}),
               VerificationError);
}

// TiledSplitsOfAnySize's first case (its pipelines compiled once): 301 keys in 19 splits of 16
// (the last 13), GQA 5, merged flat.
VerificationRecord RunTiledCase() {
  return RunCase(Variant::kTuned, Decode(301, 10, 2, 64),
                 {{"keys", 16},
                  {"splits", 19},
                  {"merge", 1},
                  {"subgroups", SharedContext().limits().subgroups}});
}

// The V-tile split weighing its clamped repeats of the last key as if they were keys: the last,
// shorter split comes out wrong.
TEST(KernelsAttentionPlanted, TiledSplitWeighingKeysPastItsEndIsCaught) {
  PlantedKernel planted("llm_attention_decode_tile_part", "< vec4<u32>(keys);",
                        "< vec4<u32>(KEYS);");
  EXPECT_THROW(RunTiledCase(), VerificationError);
}

// Key lanes sharing a (head, column): without the other lanes' sums, 3 of 4 quarters of the keys
// are lost.
TEST(KernelsAttentionPlanted, TiledSplitDroppingAKeyLanesSumIsCaught) {
  PlantedKernel planted("llm_attention_decode_tile_part",
                        "w.o += lane_o[(other - 1u) * SLOTS * DV + gc];", "");
  EXPECT_THROW(
      RunCase(Variant::kTuned, Decode(200, 4, 2, 64),
              {{"keys", 32}, {"wg", 128}, {"subgroups", SharedContext().limits().subgroups}}),
      VerificationError);
}

// The K slice read back without its rows' padding: every key but the first scored against
// another key's columns.
TEST(KernelsAttentionPlanted, KeyTileReadWithoutItsRowPaddingIsCaught) {
  PlantedKernel planted("llm_attention_decode_tile_part", "let b = j * K_STRIDE;",
                        "let b = j * DV;");
  EXPECT_THROW(RunCase(Variant::kTuned, Decode(301, 10, 2, 64),
                       {{"keys", 16},
                        {"splits", 19},
                        {"k_tile", 1},
                        {"subgroups", SharedContext().limits().subgroups}}),
               VerificationError);
}

// The flat merge weighing each split's partial the same whatever its maximum.
TEST(KernelsAttentionPlanted, FlatMergeWithoutEachSplitsMaxIsCaught) {
  PlantedKernel planted("llm_attention_decode_flat_merge_part", "let w = exp2(ml.x - m);",
                        "let w = 1.0;");
  EXPECT_THROW(RunTiledCase(), VerificationError);
}

// The subgroup merge adding its lanes' partials without bringing each to the common maximum, and
// folding a lane's splits without rescaling what it held: both weigh a split's keys wrongly.
TEST(KernelsAttentionPlanted, SubgroupMergeWithoutItsRescalesIsCaught) {
  if (ops::FixedSubgroupSize(SharedContext().limits()) == 0) {
    GTEST_SKIP() << "the device has no subgroups of one size";
  }
  auto run = [] {
    return RunCase(Variant::kTuned, Decode(301, 10, 2, 64),
                   {{"keys", 16}, {"splits", 19}, {"merge", 2}, {"subgroups", 1}});
  };
  {
    PlantedKernel planted("llm_attention_decode_subgroup_merge_part", "subgroupAdd(f.o * weight)",
                          "subgroupAdd(f.o)");
    EXPECT_THROW(run(), VerificationError);
  }
  {
    PlantedKernel planted("llm_attention_merge_fold_part",
                          "(*f).o = (*f).o * keep + part * take;",
                          "(*f).o = (*f).o + part * take;");
    EXPECT_THROW(run(), VerificationError);
  }
}

TEST(KernelsAttentionPlanted, DecodeSplitDroppingItsLastKeyIsCaught) {
  PlantedKernel planted("llm_attention_decode",
                        "return SplitKeys(first, end - first, max(end, 1u) - 1u);",
                        "return SplitKeys(first, end - first - 1u, max(end, 1u) - 1u);");
  EXPECT_THROW(RunCase(Variant::kTuned, Decode(300, 14, 2, 64), {{"v_tile", 0}}),
               VerificationError);
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
  EXPECT_THROW(RunCase(Variant::kTuned, shape), VerificationError);
}

TEST(KernelsAttentionPlanted, PrefillWithoutTheCausalMaskIsCaught) {
  ExpectCaught(Prefill(19, 4, 2, 64), "if (params.causal == 0u) {", "if (true) {");
}

TEST(KernelsAttentionPlanted, OnlineSoftmaxWithoutTheMaxSubtractionOverflows) {
  PlantedKernel planted("llm_attention_tuned", "let alpha = exp2(state.m[i] - m_new);",
                        "let alpha = 1.0; m_new = 0.0;");
  EXPECT_THROW(RunCase(Variant::kTuned, Prefill(19, 4, 2, 64)), VerificationError);
}

TEST(KernelsAttentionPlanted, DroppedTailTileIsCaught) {
  ExpectCaught(Prefill(19, 4, 2, 64), "tile < end; tile += BK", "tile + BK <= end; tile += BK");
}

}  // namespace
}  // namespace refract::suites::kernels
