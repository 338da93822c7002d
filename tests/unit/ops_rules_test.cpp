// The ops' default rules and limit checks against real devices' limits, without a device:
// lavapipe's and the H200's (from their `refract info` documents) and WebGPU's defaults. The
// tests pin the rules (what a default must achieve, what a check must refuse), not today's
// numbers.
#include <gtest/gtest.h>

#include "base/adapter_identity.h"
#include "base/device_limits.h"
#include "ops/attention_rules.h"
#include "ops/matmul_rules.h"
#include "ops/norm_rules.h"
#include "ops/quantize_rules.h"
#include "ops/softmax_rules.h"
#include "results/record_file.h"

namespace refract::ops {
namespace {

DeviceDescription Info(const std::string& name) {
  return results::ReadDeviceInfoFile(std::string(REFRACT_SOURCE_DIR) + "/tests/data/" + name);
}
const DeviceLimits& Lavapipe() {
  static const DeviceLimits kLimits = LimitsOf(Info("lavapipe-info.json"));
  return kLimits;
}
const DeviceLimits& H200() {
  static const DeviceLimits kLimits = LimitsOf(Info("h200-info.json"));
  return kLimits;
}
MatmulShape F32(MatmulDims dims) { return {Weights::kF32, dims}; }
MatmulShape Q4(MatmulDims dims) { return {Weights::kQ4, dims}; }

std::vector<const DeviceLimits*> AllLimits() {
  static const DeviceLimits kDefaults = WebGpuDefaultLimits();
  return {&Lavapipe(), &H200(), &kDefaults};
}

TEST(OpsRules, LimitsComeFromTheDescriptionOrWebGpusDefaults) {
  EXPECT_EQ(Lavapipe().max_compute_workgroup_storage_size, 32768u);
  EXPECT_EQ(Lavapipe().max_storage_buffer_binding_size, 134217728u);
  EXPECT_TRUE(Lavapipe().subgroups);
  EXPECT_EQ(Lavapipe().subgroup_min_size, 8u);
  EXPECT_TRUE(Lavapipe().cpu);
  EXPECT_EQ(H200().max_compute_workgroup_storage_size, 49152u);
  EXPECT_FALSE(H200().cpu);
  EXPECT_FALSE(H200().shader_f16);
  const DeviceLimits defaults = WebGpuDefaultLimits();
  EXPECT_EQ(defaults.max_compute_workgroup_storage_size, 16384u);
  EXPECT_EQ(defaults.max_compute_invocations_per_workgroup, 256u);
  EXPECT_EQ(defaults.max_storage_buffer_binding_size, 134217728u);
  EXPECT_FALSE(defaults.subgroups);
  EXPECT_EQ(defaults.LargestStorageBinding(), 134217728u);
  // The largest power-of-two workgroup: WebGPU's defaults hold 256; a request below a limit
  // that is not a power of two rounds down; unknown limits, 1.
  EXPECT_EQ(defaults.LargestWorkgroup(1024), 256u);
  EXPECT_EQ(defaults.LargestWorkgroup(100), 64u);
  EXPECT_EQ(H200().LargestWorkgroup(4096), 1024u);  // its limits: 1024 invocations, 1024 along x
  EXPECT_EQ(DeviceLimits{}.LargestWorkgroup(512), 1u);
}

TEST(OpsRules, AdapterIdentityTellsDevicesAndDriversApart) {
  const AdapterIdentity lavapipe = IdentityOf(Info("lavapipe-info.json"));
  const AdapterIdentity h200 = IdentityOf(Info("h200-info.json"));
  EXPECT_EQ(lavapipe, IdentityOf(Info("lavapipe-info.json")));
  EXPECT_NE(lavapipe, h200);
  EXPECT_NE(h200.Key().find("NVIDIA H200 (0x10de:0x2335)"), std::string::npos) << h200.Key();
  EXPECT_EQ(IdentityDifference(lavapipe, lavapipe), "");
  AdapterIdentity updated = h200;
  updated.driver = "NVIDIA: 590.1";
  EXPECT_EQ(IdentityDifference(updated, h200), "driver 'NVIDIA: 590.1' vs '" + h200.driver + "'");
}

TEST(OpsRules, GemmTilesFillTheDeviceOnlyWhereTheyCan) {
  // 4096²: 1024 large tiles. 2048 × 896: 16 × 7 = 112 large tiles, fewer than 128 → 64 × 64.
  // 50 × 896: 32 × 32 tiles (56 workgroups), the smallest tier.
  const GemmConfig big = kGemmRules.Resolve(F32({4096, 4096, 4096}), H200());
  const GemmConfig mid = kGemmRules.Resolve(F32({2048, 896, 896}), H200());
  const GemmConfig tiny = kGemmRules.Resolve(F32({50, 896, 896}), H200());
  EXPECT_GT(big.bm * big.bn, mid.bm * mid.bn);
  EXPECT_GT(mid.bm * mid.bn, tiny.bm * tiny.bn);
  EXPECT_GE(CeilDiv(2048, mid.bm) * CeilDiv(896, mid.bn), 128u);
  EXPECT_EQ(kGemmRules.Resolve(Q4({50, 896, 896}), H200()).bk % 8, 0u);  // whole words
  // Settings replace the tier's values; a_pad is dropped only when it is not set.
  const GemmConfig set = kGemmRules.Resolve(F32({4096, 4096, 4096}), H200(), {{"bm", 64}});
  EXPECT_EQ(set.bm, 64u);
  EXPECT_EQ(set.bn, big.bn);
}

TEST(OpsRules, GemmSplitsKOnlyWhereTilesAreFew) {
  // 50 × 4864 (gate, up): 2 × 152 = 304 tiles → 4 slices (1216 workgroups). 50 × 896 × 896: 56
  // tiles, 56 bk steps → 14 slices of 4 steps (the steps bound). 50 × 896 × 4864: 19 would reach
  // 1024, capped at 16. 4096²: 1024 tiles, none. A K of 7 bk steps is not split.
  EXPECT_EQ(kGemmRules.Resolve(F32({50, 896, 4864}), H200()).split_k, 4u);
  EXPECT_EQ(kGemmRules.Resolve(F32({50, 896, 896}), H200()).split_k, 14u);
  EXPECT_EQ(kGemmRules.Resolve(F32({50, 4864, 896}), H200()).split_k, 16u);
  EXPECT_EQ(kGemmRules.Resolve(F32({4096, 4096, 4096}), H200()).split_k, 1u);
  EXPECT_EQ(kGemmRules.Resolve(F32({50, 112, 896}), H200()).split_k, 1u);
  EXPECT_EQ(kGemmRules.Resolve(F32({50, 896, 4864}), H200(), {{"split_k", 2}}).split_k, 2u);
}

TEST(OpsRules, GemmDefaultsFitEveryDevice) {
  for (const DeviceLimits* limits : AllLimits()) {
    for (Weights w : {Weights::kF32, Weights::kQ4}) {
      for (uint32_t m : {2u, 50u, 128u, 2048u, 4096u}) {
        const MatmulShape problem{w, {m, 4096, 4096}};
        const GemmConfig c = kGemmRules.Resolve(problem, *limits);
        EXPECT_EQ(kGemmRules.Check(c, problem, *limits), std::nullopt) << m;
        EXPECT_LE(c.TileBytes(), limits->max_compute_workgroup_storage_size);
      }
    }
  }
  // The padding goes before the tiles shrink: under WebGPU's 16 KiB the 128 × 128 × 16 tiles
  // (16,640 bytes padded) drop it.
  const GemmConfig c = kGemmRules.Resolve(F32({4096, 4096, 4096}), WebGpuDefaultLimits());
  EXPECT_EQ(c.a_pad, 0u);
  EXPECT_EQ(c.bm, 128u);
}

TEST(OpsRules, GemmCheckNamesWhatDoesNotFit) {
  const GemmConfig c{.bm = 128, .bn = 128, .bk = 32, .tm = 8, .tn = 8, .a_pad = 4};
  const Refusal problem = kGemmRules.Check(c, F32({64, 64, 64}), WebGpuDefaultLimits());
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("bytes of workgroup memory; the device allows 16384"), std::string::npos)
      << *problem;
  EXPECT_TRUE(kGemmRules.Check({.tm = 3}, F32({64, 64, 64}), H200()));
  EXPECT_TRUE(kGemmRules.Check({.bm = 64, .bn = 64, .bk = 4, .tm = 4, .tn = 4}, Q4({64, 64, 64}),
                               H200()));  // q4 stages whole words of 8 codes
}

TEST(OpsRules, GemvRowsFollowTheMatrixAndTheAdapter) {
  // q4 on a GPU: a narrow matrix gets fewer rows an invocation (more workgroups) than a wide
  // one; a CPU adapter gets more rows than a GPU (fewer invocations, each paying more).
  const GemvConfig narrow = kGemvRules.Resolve(Q4({1, 896, 4864}), H200());
  const GemvConfig wide = kGemvRules.Resolve(Q4({1, 4096, 14336}), H200());
  const GemvConfig cpu = kGemvRules.Resolve(Q4({1, 896, 4864}), Lavapipe());
  EXPECT_LT(narrow.rows, wide.rows);
  EXPECT_GT(cpu.rows, narrow.rows);
  EXPECT_GT(cpu.rows, wide.rows);
  // f32 does not take the q4 rule.
  EXPECT_EQ(kGemvRules.Resolve(F32({1, 896, 4864}), H200()).rows,
            kGemvRules.Resolve(F32({1, 4096, 14336}), H200()).rows);
}

TEST(OpsRules, Q8GemvTakesHalfRowGroupsOnTheLmHead) {
  // 151,936 × 896 on a GPU: 16 invocations a row, 2 rows each; 14,336 × 4096: 16 and 1; below
  // N = 8192 (4864 × 896): 32 and 1.
  const GemvConfig lm_head = kGemvQ8Rules.Resolve(Q4({1, 896, 151936}), H200());
  const GemvConfig ffn = kGemvQ8Rules.Resolve(Q4({1, 4096, 14336}), H200());
  const GemvConfig gate_up = kGemvQ8Rules.Resolve(Q4({1, 896, 4864}), H200());
  EXPECT_EQ(lm_head.tpr, 16u);
  EXPECT_EQ(lm_head.rows, 2u);
  EXPECT_EQ(ffn.tpr, 16u);
  EXPECT_EQ(ffn.rows, 1u);
  EXPECT_EQ(gate_up.tpr, 32u);
  EXPECT_EQ(gate_up.rows, 1u);
  EXPECT_EQ(kGemvQ8Rules.Resolve(Q4({1, 896, 151936}), Lavapipe()).tpr, 32u);
  EXPECT_EQ(kGemvQ8Rules.Resolve(Q4({1, 896, 151936}), H200(), {{"tpr", 8}}).tpr, 8u);
}

TEST(OpsRules, Q8GemvLoadsAsTheRowsShapeAsks) {
  // On a GPU at M = 1, where a row holds 4 · tpr blocks: from 8192 rows four blocks a lane
  // (14,336 × 4096: 128 blocks at tpr 16), below them two adjacent ones (down: 152 at tpr 32,
  // 896 rows); a shallower row (28 blocks) two, tpr apart. A CPU adapter and M > 1 keep 2, 0.
  const GemvConfig ffn = kGemvQ8Rules.Resolve(Q4({1, 4096, 14336}), H200());
  EXPECT_EQ(ffn.batch, 4u);
  EXPECT_EQ(ffn.adjacent, 0u);
  const GemvConfig down = kGemvQ8Rules.Resolve(Q4({1, 4864, 896}), H200());
  EXPECT_EQ(down.batch, 2u);
  EXPECT_EQ(down.adjacent, 1u);
  for (const MatmulShape& shallow : {Q4({1, 896, 151936}), Q4({1, 896, 4864})}) {
    const GemvConfig c = kGemvQ8Rules.Resolve(shallow, H200());
    EXPECT_EQ(c.batch, 2u);
    EXPECT_EQ(c.adjacent, 0u);
  }
  for (const MatmulShape& problem : {Q4({1, 4096, 14336}), Q4({1, 4864, 896})}) {
    const GemvConfig cpu = kGemvQ8Rules.Resolve(problem, Lavapipe());
    EXPECT_EQ(cpu.batch, 2u);
    EXPECT_EQ(cpu.adjacent, 0u);
  }
  EXPECT_EQ(kGemvQ8Rules.Resolve(Q4({8, 4096, 14336}), H200()).batch, 2u);
  EXPECT_EQ(kGemvQ8Rules.Resolve(Q4({8, 4864, 896}), H200()).adjacent, 0u);
  // The rule reads the tpr asked for: at tpr 64 a row of 128 blocks is not deep enough.
  EXPECT_EQ(kGemvQ8Rules.Resolve(Q4({1, 4096, 14336}), H200(), {{"tpr", 64}}).batch, 2u);
  EXPECT_EQ(kGemvQ8Rules.Resolve(Q4({1, 896, 4864}), H200(), {{"batch", 1}}).batch, 1u);
  EXPECT_EQ(kGemvQ8Rules.Resolve(Q4({1, 4864, 896}), H200(), {{"adjacent", 0}}).adjacent, 0u);
  // The LM head's workgroups 64 invocations on a GPU at M = 1; 256 elsewhere.
  EXPECT_EQ(kGemvQ8Rules.Resolve(Q4({1, 896, 151936}), H200()).wg, 64u);
  EXPECT_EQ(kGemvQ8Rules.Resolve(Q4({1, 896, 151936}), Lavapipe()).wg, 256u);
  EXPECT_EQ(kGemvQ8Rules.Resolve(Q4({8, 896, 151936}), H200()).wg, 256u);
  EXPECT_EQ(ffn.wg, 256u);
  // batch 1, 2 or 4 (the kernel's MAX_BATCH), adjacent 0 or 1; the f32-activation GEMV has
  // neither axis.
  const MatmulShape problem = Q4({1, 4096, 14336});
  for (const auto& [name, value] :
       std::vector<std::pair<std::string, uint32_t>>{{"batch", 3}, {"batch", 8}, {"adjacent", 2}}) {
    const Refusal refused =
        kGemvQ8Rules.Check(kGemvQ8Rules.Resolve(problem, H200(), {{name, value}}), problem, H200());
    ASSERT_TRUE(refused) << name << " " << value;
    EXPECT_NE(refused->find(name + " " + std::to_string(value)), std::string::npos) << *refused;
  }
  EXPECT_FALSE(
      kGemvQ8Rules.Check(kGemvQ8Rules.Resolve(problem, H200(), {{"batch", 1}}), problem, H200()));
  for (const char* name : {"batch", "adjacent"}) {
    EXPECT_TRUE(kGemvQ8Rules.axes().ValuesOf(GemvConfig{}).contains(name));
    EXPECT_FALSE(kGemvRules.axes().ValuesOf(GemvConfig{}).contains(name));
  }
}

TEST(OpsRules, Q8GemvOfSeveralActivationRowsKeepsAtMostEightSums) {
  // M > 1: a row a row group (M partial sums each), on a GPU and a CPU alike; rows × M ≤ 8; the
  // LM head's row groups 8 invocations on a GPU (16 at M = 1), 32 below N = 65,536.
  for (const DeviceLimits& limits : {H200(), Lavapipe()}) {
    EXPECT_EQ(kGemvQ8Rules.Resolve(Q4({8, 896, 151936}), limits).rows, 1u);
    EXPECT_EQ(kGemvQ8Rules.Resolve(Q4({2, 4096, 14336}), limits).rows, 1u);
    EXPECT_EQ(kGemvQ8Rules.Resolve(Q4({8, 4096, 14336}), limits).tpr, 32u);
  }
  EXPECT_EQ(kGemvQ8Rules.Resolve(Q4({8, 896, 151936}), H200()).tpr, 8u);
  EXPECT_EQ(kGemvQ8Rules.Resolve(Q4({8, 896, 151936}), Lavapipe()).tpr, 32u);
  const MatmulShape four = Q4({4, 4096, 14336});
  EXPECT_FALSE(kGemvQ8Rules.Check(kGemvQ8Rules.Resolve(four, H200(), {{"rows", 2}}), four, H200()));
  const Refusal three = kGemvQ8Rules.Check(
      kGemvQ8Rules.Resolve(Q4({3, 64, 64}), H200(), {{"rows", 3}}), Q4({3, 64, 64}), H200());
  ASSERT_TRUE(three);
  EXPECT_NE(three->find("rows 3, M 3"), std::string::npos) << *three;
  const MatmulShape nine = Q4({9, 64, 64});
  EXPECT_TRUE(kGemvQ8Rules.Check(kGemvQ8Rules.Resolve(nine, H200()), nine, H200()));
  // The f32-activation GEMV stays one row.
  const MatmulShape two = Q4({2, 64, 64});
  const Refusal f32_path = kGemvRules.Check(kGemvRules.Resolve(two, H200()), two, H200());
  ASSERT_TRUE(f32_path);
  EXPECT_NE(f32_path->find("one row (M = 1)"), std::string::npos) << *f32_path;
}

TEST(OpsRules, QuantizerNamesWhatItCannotTake) {
  auto problem = [](QuantizeShape shape, const DeviceLimits& limits) {
    return kQuantizeQ8Rules.Check(kQuantizeQ8Rules.Resolve(shape, limits), shape, limits);
  };
  EXPECT_FALSE(problem({.k = 4096, .m = 8}, H200()));
  EXPECT_FALSE(problem({.k = 4096, .m = 8}, Lavapipe()));
  for (const QuantizeShape empty : {QuantizeShape{.k = 0}, QuantizeShape{.k = 64, .m = 0}}) {
    const Refusal p = problem(empty, H200());
    ASSERT_TRUE(p);
    EXPECT_NE(p->find("K and M above 0"), std::string::npos) << *p;
  }
  // 8 rows of 8 Mi values: 256 MiB of x, over lavapipe's 128 MiB binding.
  const Refusal wide = problem({.k = 8u << 20, .m = 8}, Lavapipe());
  ASSERT_TRUE(wide);
  EXPECT_NE(wide->find("the quantizer's x"), std::string::npos) << *wide;
  // 2^30 blocks of 4 invocations: past the kernel's 32-bit invocation index.
  const Refusal many = problem({.k = 1u << 20, .m = 1u << 15}, H200());
  ASSERT_TRUE(many);
  EXPECT_NE(many->find("exceed its 32-bit indices"), std::string::npos) << *many;
}

// The quantizer's block reductions: subgroup shuffles where the device has subgroups (a block's
// four invocations in one), else workgroup memory; shuffles asked for without subgroups are
// refused by name.
TEST(OpsRules, QuantizerShufflesWhereTheDeviceHasSubgroups) {
  const QuantizeShape shape{.k = 896, .m = 1};
  EXPECT_EQ(kQuantizeQ8Rules.Resolve(shape, H200()).subgroups, 1u);
  EXPECT_EQ(kQuantizeQ8Rules.Resolve(shape, Lavapipe()).subgroups, 1u);
  const DeviceLimits defaults = WebGpuDefaultLimits();
  EXPECT_EQ(kQuantizeQ8Rules.Resolve(shape, defaults).subgroups, 0u);
  const Refusal p = kQuantizeQ8Rules.Check(
      kQuantizeQ8Rules.Resolve(shape, defaults, {{"subgroups", 1}}), shape, defaults);
  ASSERT_TRUE(p);
  EXPECT_NE(p->find("need subgroups"), std::string::npos) << *p;
}

TEST(OpsRules, GemvSubgroupSumsOnlyWhereARowGroupFitsASubgroup) {
  const MatmulShape q4 = Q4({1, 4096, 14336});
  EXPECT_EQ(kGemvRules.Resolve(q4, H200()).subgroups, 1u);      // 32 ≤ 32
  EXPECT_EQ(kGemvRules.Resolve(q4, Lavapipe()).subgroups, 0u);  // 32 > 8
  EXPECT_EQ(kGemvRules.Resolve(q4, Lavapipe(), {{"tpr", 8}}).subgroups, 1u);
  EXPECT_EQ(kGemvRules.Resolve(q4, WebGpuDefaultLimits()).subgroups, 0u);
  const GemvConfig forced = kGemvRules.Resolve(q4, Lavapipe(), {{"subgroups", 1}});
  const Refusal problem = kGemvRules.Check(forced, q4, Lavapipe());
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("smallest subgroup (8)"), std::string::npos) << *problem;
  EXPECT_TRUE(kGemvRules.Check({.subgroups = 1}, q4, WebGpuDefaultLimits()));
}

TEST(OpsRules, GemvCountsItsWorkgroupMemory) {
  // 1024 invocations × 8 rows of f32 sums (32,768 B) plus q4's 9,216 B x staging: over
  // lavapipe's 32,768; the subgroup path keeps no sums there.
  const GemvConfig c{.wg = 1024, .tpr = 8, .rows = 8, .subgroups = 0};
  const Refusal problem = kGemvRules.Check(c, Q4({1, 64, 40}), Lavapipe());
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("needs 41984 bytes of workgroup memory"), std::string::npos) << *problem;
  EXPECT_EQ(kGemvRules.Check(c, F32({1, 64, 40}), Lavapipe()), std::nullopt);  // 32,768: fits
  EXPECT_EQ(kGemvRules.Check({.wg = 1024, .tpr = 8, .rows = 8, .subgroups = 1}, Q4({1, 64, 40}),
                             Lavapipe()),
            std::nullopt);
}

TEST(OpsRules, RowKernelsKeepTheirRowWithinEveryDevice) {
  for (const DeviceLimits* limits : AllLimits()) {
    for (uint32_t hidden : {512u, 896u, 4096u, 6u}) {
      const NormShape norm{.shape = {.rows = 3, .hidden = hidden}};
      const RowConfig c = kNormRules.tuned.Resolve(norm, *limits);
      EXPECT_EQ(kNormRules.tuned.Check(c, norm, *limits), std::nullopt) << hidden;
      EXPECT_GE(uint64_t{c.wg} * c.vpt * RowWidth(hidden), hidden);
      EXPECT_EQ(c.subgroups, limits->subgroups ? 1u : 0u);
    }
    // Softmax aims at 8 elements an invocation; longer rows still fit (read again per phase).
    for (uint32_t row : {50u, 1024u, 2048u, 100000u}) {
      const SoftmaxShape shape{.rows = 2, .row_size = row};
      const RowConfig c = kSoftmaxRules.tuned.Resolve(shape, *limits);
      EXPECT_EQ(kSoftmaxRules.tuned.Check(c, shape, *limits), std::nullopt) << row;
    }
  }
  const NormShape too_long{.shape = {.rows = 1, .hidden = 256 * 16 * 4 + 4}};
  EXPECT_TRUE(kNormRules.tuned.Check(kNormRules.tuned.Resolve(too_long, H200()), too_long, H200()));
}

TEST(OpsRules, AttentionDefaultsFitAndSplitTheDecodeCache) {
  for (const DeviceLimits* limits : AllLimits()) {
    for (uint32_t d : {64u, 256u}) {
      for (uint32_t t : {1u, 50u, 2048u}) {
        const AttentionShape s{.seq_len = t,
                               .kv_len = t == 1 ? 4096u : t,
                               .heads = 4,
                               .kv_heads = 2,
                               .head_dim = d,
                               .position_offset = t == 1 ? 4095u : 0u};
        const AttentionConfig c = kAttentionRules.tuned.Resolve(s, *limits);
        EXPECT_EQ(kAttentionRules.tuned.Check(c, s, *limits), std::nullopt) << d << " " << t;
      }
    }
  }
  // Decode (14 heads over 2 KV heads): 2 row blocks alone; the keys split until the grid nears
  // 128 workgroups, in whole tiles.
  const AttentionShape decode{.seq_len = 1,
                              .kv_len = 4096,
                              .heads = 14,
                              .kv_heads = 2,
                              .head_dim = 64,
                              .position_offset = 4095};
  const AttentionConfig c = kAttentionRules.tuned.Resolve(decode, H200());
  ASSERT_GT(c.split_keys, 0u);
  EXPECT_EQ(c.split_keys % c.TileKeys(), 0u);
  EXPECT_GE(2u * AttentionSplits(c, decode), 128u);
  EXPECT_EQ(kAttentionRules.tuned.Resolve(decode, H200(), {{"split_keys", 0}}).split_keys, 0u);
}

/// Qwen2.5-0.5B's decode attention over a cache of `kv_len` (14 heads, 2 KV heads, d 64).
AttentionShape QwenDecode(uint32_t kv_len) {
  return {.seq_len = 1,
          .kv_len = kv_len,
          .heads = 14,
          .kv_heads = 2,
          .head_dim = 64,
          .position_offset = kv_len - 1};
}

TEST(OpsRules, DecodeAttentionsKeyAnInvocationSplitSplitsTheCacheByItsWorkgroup) {
  AttentionShape s = QwenDecode(4096);
  // v_tile 0, 4096 keys: 64 splits of 64; head_dim 512 (128 columns): 128 invocations, 32 splits.
  const Settings v0 = {{"v_tile", 0}};
  AttentionDecodeConfig c = kAttentionDecodeRules.Resolve(s, H200(), v0);
  EXPECT_EQ(c.wg, 64u);
  EXPECT_EQ(c.splits, 64u);
  s.head_dim = 512;
  c = kAttentionDecodeRules.Resolve(s, H200(), v0);
  EXPECT_EQ(c.wg, 128u);
  EXPECT_EQ(c.splits, 32u);
  EXPECT_EQ(kAttentionDecodeRules.Check(c, s, H200()), std::nullopt);
  // A set wg keeps; splits follow it; a split past wg keys is named, and so is a narrow wg.
  c = kAttentionDecodeRules.Resolve(s, H200(), {{"v_tile", 0}, {"wg", 256}});
  EXPECT_EQ(c.splits, 16u);
  c.splits = 10;
  EXPECT_NE(kAttentionDecodeRules.Check(c, s, H200()).value_or("").find("exceed wg 256"),
            std::string::npos);
  c = kAttentionDecodeRules.Resolve(s, H200(), {{"v_tile", 0}, {"wg", 64}});
  EXPECT_NE(kAttentionDecodeRules.Check(c, s, H200()).value_or("").find("covers head_dim 256"),
            std::string::npos);
}

// The V-tile split with its K slice in workgroup memory: about 64 splits (keys 8 to 32, measured
// on the H200: 8 at S = 128, 16 at 1024, 32 at 4096), invocations for both passes; the
// key-an-invocation split where it does not fit.
// The merge: the subgroup merge, two subgroups a workgroup.
TEST(OpsRules, DecodeAttentionTilesItsSplitWhereItFits) {
  struct Expected {
    uint32_t kv_len, keys, splits, merge, merge_wg;
  };
  for (const Expected& e : {Expected{1, 8, 1, 2, 64}, Expected{32, 8, 4, 2, 64},
                            Expected{128, 8, 16, 2, 64}, Expected{256, 8, 32, 2, 64},
                            Expected{512, 8, 64, 2, 64}, Expected{1024, 16, 64, 2, 64},
                            Expected{2048, 32, 64, 2, 64}, Expected{4096, 32, 128, 2, 64},
                            Expected{65536, 32, 2048, 2, 64}}) {
    SCOPED_TRACE("S=" + std::to_string(e.kv_len));
    const AttentionShape s = QwenDecode(e.kv_len);
    const AttentionDecodeConfig c = kAttentionDecodeRules.Resolve(s, H200());
    EXPECT_EQ(c.v_tile, 1u);
    EXPECT_EQ(c.k_tile, 1u);
    EXPECT_EQ(c.keys, e.keys);
    EXPECT_EQ(c.splits, e.splits);
    EXPECT_EQ(c.wg, 128u);  // 8 head slots x 16 columns
    EXPECT_EQ(c.merge, e.merge);
    EXPECT_EQ(c.merge_wg, e.merge_wg);
    EXPECT_EQ(kAttentionDecodeRules.Check(c, s, H200()), std::nullopt);
  }
  // GQA 2, head_dim 256: 32 keys' V and K slices (65 KiB) exceed the H200's 48 KiB, so 16 keys,
  // whose 16 x 64 columns take 128 invocations at 8 loads each; without the K slice (k_tile 0),
  // 32 keys' V slice fits (256 invocations) and so does 64 keys' (64 KiB) not.
  AttentionShape wide = QwenDecode(4096);
  wide.heads = 4;
  wide.head_dim = 256;
  AttentionDecodeConfig c = kAttentionDecodeRules.Resolve(wide, H200());
  EXPECT_EQ(c.v_tile, 1u);
  EXPECT_EQ(c.keys, 16u);
  EXPECT_EQ(c.wg, 128u);
  EXPECT_EQ(kAttentionDecodeRules.Check(c, wide, H200()), std::nullopt);
  c = kAttentionDecodeRules.Resolve(wide, H200(), {{"k_tile", 0}});
  EXPECT_EQ(c.keys, 32u);
  EXPECT_EQ(c.wg, 256u);
  EXPECT_EQ(kAttentionDecodeRules.Check(c, wide, H200()), std::nullopt);
  c = kAttentionDecodeRules.Resolve(wide, H200(), {{"k_tile", 1}, {"keys", 32}});
  EXPECT_NE(kAttentionDecodeRules.Check(c, wide, H200())
                .value_or("")
                .find("maxComputeWorkgroupStorageSize"),
            std::string::npos);
  // WebGPU's default limits (16 KiB, 256 invocations): the keys halve until the V slice fits;
  // head_dim 512 with 8 heads a KV head does not tile (its queries alone take 16.1 KiB).
  const DeviceLimits defaults = WebGpuDefaultLimits();
  c = kAttentionDecodeRules.Resolve(wide, defaults);
  EXPECT_EQ(c.v_tile, 1u);
  EXPECT_LT(c.keys, 64u);
  EXPECT_EQ(kAttentionDecodeRules.Check(c, wide, defaults), std::nullopt);
  AttentionShape huge = QwenDecode(1024);
  huge.heads = 16;
  huge.head_dim = 512;
  c = kAttentionDecodeRules.Resolve(huge, defaults);
  EXPECT_EQ(c.v_tile, 0u);
  EXPECT_NE(kAttentionDecodeRules.Check(
                kAttentionDecodeRules.Resolve(huge, defaults, {{"v_tile", 1}}), huge, defaults),
            std::nullopt);
}

// lavapipe: the key-an-invocation split unless the V-tile one is asked for.
TEST(OpsRules, DecodeAttentionOnACpuKeepsTheKeyAnInvocationSplit) {
  const AttentionShape s = QwenDecode(1024);
  EXPECT_EQ(kAttentionDecodeRules.Resolve(s, Lavapipe()).v_tile, 0u);
  EXPECT_EQ(kAttentionDecodeRules.Resolve(s, Lavapipe(), {{"keys", 16}}).v_tile, 1u);
  const AttentionDecodeConfig c = kAttentionDecodeRules.Resolve(s, Lavapipe(), {{"v_tile", 1}});
  EXPECT_EQ(c.keys, 16u);  // the GPU rule: about 64 splits
  EXPECT_EQ(kAttentionDecodeRules.Check(c, s, Lavapipe()), std::nullopt);
}

TEST(OpsRules, DecodeAttentionsTiledSplitNamesWhatItCannotHold) {
  const AttentionShape s = QwenDecode(1024);
  auto problem = [&](const Settings& settings) {
    return kAttentionDecodeRules
        .Check(kAttentionDecodeRules.Resolve(s, H200(), settings), s, H200())
        .value_or("");
  };
  EXPECT_NE(problem({{"keys", 16}, {"splits", 32}}).find("exceed keys 16"), std::string::npos);
  EXPECT_NE(problem({{"keys", 64}, {"wg", 32}}).find("is below keys 64"), std::string::npos);
  EXPECT_NE(problem({{"keys", 64}, {"wg", 64}}).find("keys x head_dim / 32 = 128"),
            std::string::npos);
  EXPECT_NE(problem({{"v_tile", 1}, {"online", 1}}).find("belong to the v_tile 0 split"),
            std::string::npos);
  EXPECT_EQ(problem({{"keys", 32}, {"wg", 64}}), "");  // two head rounds an invocation
}

// The merge: lanes enough for every split's partial in one step of four loads, 64 to 256.
TEST(OpsRules, DecodeAttentionsMergeHoldsEverySplitInOneStep) {
  const Settings v0 = {{"v_tile", 0}, {"merge", 0}};
  EXPECT_EQ(kAttentionDecodeRules.Resolve(QwenDecode(128), H200(), v0).merge_wg, 64u);  // 2
  // 16 splits: 16 columns x 4 lanes; 32 splits: 128.
  EXPECT_EQ(kAttentionDecodeRules.Resolve(QwenDecode(1024), H200(), v0).merge_wg, 64u);
  EXPECT_EQ(kAttentionDecodeRules.Resolve(QwenDecode(2048), H200(), v0).merge_wg, 128u);
  AttentionShape s = QwenDecode(65536);
  AttentionDecodeConfig c = kAttentionDecodeRules.Resolve(s, H200(), v0);
  EXPECT_EQ(c.merge_wg, 256u);  // 1024 splits: capped, the loop takes the rest
  EXPECT_EQ(kAttentionDecodeRules.Check(c, s, H200()), std::nullopt);
  EXPECT_EQ(kAttentionDecodeRules.Resolve(s, H200(), {{"merge_wg", 32}}).merge_wg, 32u);
  s.head_dim = 256;  // 64 columns: a lanes' merge of 32 invocations cannot hold them
  c = kAttentionDecodeRules.Resolve(s, H200(), {{"merge", 0}, {"merge_wg", 32}});
  EXPECT_NE(kAttentionDecodeRules.Check(c, s, H200()).value_or("").find("merge_wg 32"),
            std::string::npos);
}

// The subgroup merge: the default where subgroups have one size (the H200's 32) and the device is
// no CPU; its lanes are mapped at compile time, so it is refused, by name, without subgroups,
// where their size varies or where a workgroup holds a part of one.
TEST(OpsRules, DecodeAttentionsSubgroupMergeNeedsSubgroupsOfOneSize) {
  const AttentionShape s = QwenDecode(1024);
  EXPECT_EQ(kAttentionDecodeRules.Resolve(s, H200()).merge, 2u);
  EXPECT_EQ(kAttentionDecodeRules.Resolve(s, Lavapipe()).merge, 0u);  // 16 splits, a CPU
  EXPECT_EQ(kAttentionDecodeRules.Resolve(QwenDecode(32), Lavapipe()).merge, 1u);
  EXPECT_EQ(kAttentionDecodeRules.Resolve(s, WebGpuDefaultLimits()).merge, 0u);
  const AttentionDecodeConfig on_lavapipe =
      kAttentionDecodeRules.Resolve(s, Lavapipe(), {{"merge", 2}});
  EXPECT_EQ(on_lavapipe.merge_wg, 64u);
  EXPECT_EQ(kAttentionDecodeRules.Check(on_lavapipe, s, Lavapipe()), std::nullopt);

  auto problem = [&](const DeviceLimits& limits, const Settings& settings) {
    return kAttentionDecodeRules
        .Check(kAttentionDecodeRules.Resolve(s, limits, settings), s, limits)
        .value_or("");
  };
  EXPECT_NE(problem(H200(), {{"merge", 2}, {"subgroups", 0}}).find("needs subgroups=1"),
            std::string::npos);
  DeviceLimits varying = H200();
  varying.subgroup_min_size = 16;  // sizes 16 to 32: a lane's work is not known in advance
  EXPECT_EQ(kAttentionDecodeRules.Resolve(s, varying).merge, 0u);
  EXPECT_NE(problem(varying, {{"merge", 2}}).find("subgroups have one size"), std::string::npos);
  DeviceLimits wide = H200();
  wide.subgroup_min_size = wide.subgroup_max_size = 64;
  EXPECT_EQ(kAttentionDecodeRules.Resolve(s, wide).merge_wg, 64u);
  EXPECT_NE(
      problem(wide, {{"merge_wg", 32}}).find("merge_wg 32 a multiple of the subgroup size 64"),
      std::string::npos);
  EXPECT_EQ(problem(H200(), {{"merge", 2}, {"merge_wg", 32}}), "");  // one subgroup a workgroup
}

TEST(OpsRules, DecodeAttentionsOnlineStatisticsNeedSubgroups) {
  const AttentionShape s = QwenDecode(1024);
  EXPECT_EQ(kAttentionDecodeRules.Resolve(s, H200()).online, 0u);  // the measured design
  AttentionDecodeConfig c = kAttentionDecodeRules.Resolve(s, H200(), {{"online", 1}});
  EXPECT_EQ(kAttentionDecodeRules.Check(c, s, H200()), std::nullopt);
  c = kAttentionDecodeRules.Resolve(s, H200(), {{"online", 1}, {"subgroups", 0}});
  EXPECT_NE(kAttentionDecodeRules.Check(c, s, H200()).value_or("").find("need subgroups=1"),
            std::string::npos);
}

}  // namespace
}  // namespace refract::ops
