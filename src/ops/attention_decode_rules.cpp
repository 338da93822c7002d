// Decode attention's axes, default rule and limit checks (the split-KV kernel and its merge):
// pure, no GPU.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "ops/attention_rules.h"

namespace refract::ops {
namespace {

// llm_attention_decode.wgsl's bound: query heads a KV head (two vec4 of scores).
constexpr uint32_t kDecodeMaxGroup = 8;

// A flag a sweep leaves to the default rule (no grid): v_tile (the keys on the grid imply 1).
Axis RuleFlagAxis(std::string name, std::string meaning, std::string default_rule) {
  Axis axis = FlagAxis(std::move(name), std::move(meaning), std::move(default_rule));
  axis.grid.clear();
  return axis;
}

const AxisTable<AttentionDecodeConfig>& DecodeAxes() {
  static const AxisTable<AttentionDecodeConfig> kAxes({
      {PowerOfTwoAxis("wg", "the split's invocations a workgroup (v_tile 0: also its keys at most)",
                      "v_tile 0: 64, or head_dim / 4 when more; v_tile 1: enough for a key, a "
                      "(head, column) and 8 V loads each",
                      32, 1024, {32, 64, 128, 256}, {32, 64}),
       &AttentionDecodeConfig::wg},
      {CountAxis("splits",
                 "workgroups along the cache a KV head (each at most keys keys, v_tile 1; wg, "
                 "v_tile 0)",
                 "ceil(S / keys) (v_tile 1), ceil(S / wg) (v_tile 0)", 4096,
                 {4, 8, 16, 32, 64, 128}, {8, 32}),
       &AttentionDecodeConfig::splits},
      {FlagAxis("subgroups", "1: reductions through subgroup operations; 0: workgroup memory",
                "1 where the device has subgroups"),
       &AttentionDecodeConfig::subgroups},
      {PowerOfTwoAxis("merge_wg",
                      "the merge's invocations a workgroup (merge 0: a query head's; 1: heads of "
                      "head_dim / 4 each; 2: subgroups of a (head, column) each)",
                      "merge 0: head_dim / 4 x ceil(splits / 4), 64 to 256; 1: 32, or head_dim "
                      "/ 4 when more; 2: 64, or the subgroup size when more",
                      32, 1024, {64, 128, 256}, {64, 256}),
       &AttentionDecodeConfig::merge_wg},
      {FlagAxis("online",
                "1: the split's softmax statistics a subgroup at a time, combined in one "
                "hand-off (needs subgroups); 0: four workgroup reductions",
                "0 (on the H200 1 took 2-3 % off the v_tile 0 split)"),
       &AttentionDecodeConfig::online},
      {RuleFlagAxis("v_tile",
                    "1: the split's V slice in workgroup memory, a key's scores and a head's "
                    "weighing spread over the invocations; 0: a key an invocation, every head",
                    "1 on a GPU where it fits the device, else 0"),
       &AttentionDecodeConfig::v_tile},
      {PowerOfTwoAxis("keys", "v_tile 1: the keys a split holds at most",
                      "S / 64 (k_tile 1) or S / 32 (k_tile 0) rounded up to a power of two, 8 "
                      "to 32 (k_tile 1) or 64, halved until the split fits the workgroup memory",
                      4, 256, {8, 16, 32, 64}, {32}),
       &AttentionDecodeConfig::keys},
      {FlagAxis("k_tile",
                "v_tile 1: 1, the split's K slice in workgroup memory too (coalesced loads); 0, "
                "each scoring invocation loads its key's row",
                "1 with v_tile 1"),
       &AttentionDecodeConfig::k_tile},
      {{.name = "merge",
        .meaning = "0: lanes over the splits and two workgroup reductions; 1: each (head, "
                   "column) invocation combines every split itself; 2: a subgroup a (head, "
                   "column), its lanes over the splits",
        .default_rule = "2 on a GPU whose subgroups have one size; else 1 at 4 splits or fewer, "
                        "else 0",
        .min = 0,
        .max = 2},
       &AttentionDecodeConfig::merge},
  });
  return kAxes;
}

// llm_attention_decode_tile_part's bound: V slice loads an invocation.
constexpr uint64_t kTileLoads = 8;

// llm_attention_decode_tile_part's head slots: the query heads a KV head rounded up to a power
// of two.
uint32_t TileSlots(const AttentionShape& shape) {
  uint32_t slots = 1;
  while (slots < shape.group()) slots *= 2;
  return slots;
}

// llm_attention_decode_tile_part's workgroup memory [bytes]: tq, tv, tk (k_tile 1: rows of
// head_dim / 4 + 1 vec4), ts (vec4 of scores), lane_o and lane_l.
uint64_t TileSplitBytes(const AttentionDecodeConfig& c, const AttentionShape& shape) {
  const uint64_t slots = TileSlots(shape), columns = shape.head_dim / 4;
  const uint64_t lanes = std::max<uint64_t>(c.wg / std::max<uint64_t>(slots * columns, 1), 1);
  const uint64_t lane_slots = std::max<uint64_t>((lanes - 1) * slots * columns, 1);
  const uint64_t key_tile = c.k_tile == 1 ? uint64_t{c.keys} * (columns + 1) : 1;
  return 16 * slots * (columns + 1) + 16 * uint64_t{c.keys} * columns + 16 * key_tile +
         16 * slots * (uint64_t{c.keys} / 4 + 1) + 20 * lane_slots;
}

// Keys a v_tile split aims for: at least 8 and at most 64 (its K rows loaded by the scoring
// invocations, k_tile 0) or 32 (the K slice in workgroup memory, k_tile 1), about 32 splits
// (k_tile 0) or 64 (k_tile 1). On the H200 (docs/results/archive/NOTEBOOK.md): k_tile 0 was best at
// 8 keys for S = 128, 32 for 1024 and 64 for 4096 (128 slower at every S; 2026-12-02); k_tile 1 at
// 8 for S = 128, 16 for 1024 (0.1-0.2 µs under 32 in four leases once the merge read split-minor
// partials, 2026-12-04) and 32 for 4096 (16: +1 µs; 64: 9.31 against 9.12 µs).
uint32_t TileKeys(uint32_t kv_len, uint32_t k_tile) {
  const uint32_t most = k_tile == 1 ? 32 : 64;
  const uint64_t splits = k_tile == 1 ? 64 : 32;
  uint32_t keys = 8;
  while (keys < most && keys * splits < kv_len) keys *= 2;
  return keys;
}

// DecodeResolve for one split design (`v_tile` 0 or 1).
AttentionDecodeConfig DecodeResolveFor(uint32_t v_tile, const AttentionShape& shape,
                                       const DeviceLimits& limits, const Settings& settings) {
  AttentionDecodeConfig c = DecodeAxes().With(AttentionDecodeConfig{}, settings);
  c.v_tile = v_tile;
  // The K slice in workgroup memory wherever the V-tile split runs: on the H200 it took 0.1-0.8
  // µs off the split (its scoring invocations' own key rows touch a cache line a lane).
  c.k_tile = SettingOr(settings, "k_tile", v_tile);
  if (c.v_tile == 1) {
    // Invocations enough for each pass, a power of two from 32: a key each, a
    // (head, column) each (or fewer, the device's most, each weighing several), the V slice in
    // 8 loads each.
    auto with_keys = [&](uint32_t keys) {
      const uint64_t columns = shape.head_dim / 4;
      const uint64_t weighing = std::min<uint64_t>(uint64_t{TileSlots(shape)} * columns,
                                                   limits.max_compute_invocations_per_workgroup);
      const uint64_t wanted =
          std::max({weighing, uint64_t{keys}, CeilDiv(keys * columns, kTileLoads)});
      AttentionDecodeConfig t = c;
      t.keys = keys;
      uint32_t wg = 32;
      while (wg < wanted) wg *= 2;
      t.wg = SettingOr(settings, "wg", wg);
      return t;
    };
    c.keys = SettingOr(settings, "keys", TileKeys(shape.kv_len, c.k_tile));
    while (!settings.contains("keys") && c.keys > 4 &&
           TileSplitBytes(with_keys(c.keys), shape) > limits.max_compute_workgroup_storage_size) {
      c.keys /= 2;
    }
    c = with_keys(c.keys);
    c.splits =
        SettingOr(settings, "splits",
                  static_cast<uint32_t>(std::max<uint64_t>(CeilDiv(shape.kv_len, c.keys), 1)));
  } else {
    uint32_t wg = 64;
    while (wg < shape.head_dim / 4) wg *= 2;
    c.wg = SettingOr(settings, "wg", std::min(wg, limits.max_compute_invocations_per_workgroup));
    c.splits = SettingOr(settings, "splits",
                         static_cast<uint32_t>(std::max<uint64_t>(CeilDiv(shape.kv_len, c.wg), 1)));
  }
  c.subgroups = SettingOr(settings, "subgroups", limits.subgroups ? 1u : 0u);
  // The subgroup merge where it can run (docs/results/archive/NOTEBOOK.md); else the flat merge
  // where it measured faster: 2.1-2.2 against 2.7 µs at 2 and 4 splits, 5.6 against 2.7 at 16 (its
  // loop waits a round trip a split).
  const bool subgroup_merge = !limits.cpu && c.subgroups == 1 && FixedSubgroupSize(limits) != 0;
  c.merge = SettingOr(settings, "merge", subgroup_merge ? 2u : c.splits <= 4 ? 1u : 0u);
  // Lanes enough for every split's partial in one step of four loads (the merge's loop takes
  // them four at a time), so that the merge waits on one round of loads.
  uint64_t merge_wg = 64;
  const uint64_t wanted = uint64_t{shape.head_dim / 4} * CeilDiv(c.splits, 4);
  while (merge_wg < wanted && merge_wg < 256) merge_wg *= 2;
  if (c.merge == 1) {  // an invocation a column: a head, or two of 64 dimensions
    merge_wg = 32;
    while (merge_wg < shape.head_dim / 4) merge_wg *= 2;
  }
  if (c.merge == 2) merge_wg = std::max<uint64_t>(64, FixedSubgroupSize(limits));
  c.merge_wg = SettingOr(settings, "merge_wg",
                         static_cast<uint32_t>(std::min<uint64_t>(
                             merge_wg, limits.max_compute_invocations_per_workgroup)));
  return c;
}

Refusal DecodeCheck(const AttentionDecodeConfig& c, const AttentionShape& shape,
                    const DeviceLimits& limits);

// The split design set, or implied by an axis only one design has (keys, k_tile 1: v_tile 1;
// online 1: v_tile 0), so that a set axis is never silently dropped; else, on a GPU, the v_tile
// split where it fits the device (its workgroup memory and invocations), else the v_tile 0 split —
// which a CPU adapter always takes: on lavapipe the v_tile split's barriers and workgroup
// memory made it 1.7-3.4x slower (docs/results/archive/NOTEBOOK.md).
AttentionDecodeConfig DecodeResolve(const AttentionShape& shape, const DeviceLimits& limits,
                                    const Settings& settings) {
  if (settings.contains("v_tile")) {
    return DecodeResolveFor(settings.at("v_tile"), shape, limits, settings);
  }
  if (settings.contains("keys") || SettingOr(settings, "k_tile", 0) == 1) {
    return DecodeResolveFor(1, shape, limits, settings);
  }
  if (SettingOr(settings, "online", 0) == 1 || limits.cpu) {
    return DecodeResolveFor(0, shape, limits, settings);
  }
  AttentionDecodeConfig tiled = DecodeResolveFor(1, shape, limits, settings);
  if (!DecodeCheck(tiled, shape, limits)) return tiled;
  return DecodeResolveFor(0, shape, limits, settings);
}

Refusal DecodeCheck(const AttentionDecodeConfig& c, const AttentionShape& shape,
                    const DeviceLimits& limits) {
  if (auto problem = AttentionShapeRefusal(shape, limits)) return problem;
  if (shape.seq_len != 1) return "the decode kernel takes one query position (T = 1)";
  if (shape.head_dim % 4 != 0 || shape.head_dim > 512) {
    return "decode attention needs head_dim a multiple of 4, at most 512";
  }
  const uint64_t group = shape.group(), columns = shape.head_dim / 4;
  if (group > kDecodeMaxGroup) return "decode attention serves at most 8 query heads a KV head";
  if (c.v_tile == 0 && columns > c.wg) {
    return "decode attention's wg " + std::to_string(c.wg) + " covers head_dim " +
           std::to_string(4 * c.wg) + " at most (a vec4 column an invocation), not " +
           std::to_string(shape.head_dim);
  }
  if (c.merge != 2 && columns > c.merge_wg) {
    return "decode attention's merge_wg " + std::to_string(c.merge_wg) + " covers head_dim " +
           std::to_string(4 * c.merge_wg) + " at most, not " + std::to_string(shape.head_dim);
  }
  if (c.merge == 2) {
    const uint32_t width = FixedSubgroupSize(limits);
    if (c.subgroups != 1 || width == 0) {
      return std::string(
          "decode attention's subgroup merge (merge=2) needs subgroups=1 on a device whose "
          "subgroups have one size");
    }
    if (c.merge_wg % width != 0) {
      return "decode attention's subgroup merge needs merge_wg " + std::to_string(c.merge_wg) +
             " a multiple of the subgroup size " + std::to_string(width);
    }
  }
  const uint64_t split_keys = CeilDiv(shape.kv_len, c.splits);
  if (c.v_tile == 0 && split_keys > c.wg) {
    return "decode attention's " + std::to_string(c.splits) + " splits of " +
           std::to_string(shape.kv_len) + " keys exceed wg " + std::to_string(c.wg) +
           " keys a split";
  }
  if (c.subgroups == 1 && !limits.subgroups) return std::string("the device has no subgroups");
  if (c.online == 1 && c.subgroups != 1) {
    return std::string("decode attention's online statistics (online=1) need subgroups=1");
  }
  if (c.k_tile == 1 && c.v_tile != 1) {
    return std::string(
        "decode attention's K slice in workgroup memory (k_tile=1) belongs to "
        "the v_tile 1 split");
  }
  if (c.v_tile == 1) {
    if (c.online == 1) {
      return std::string("decode attention's online statistics belong to the v_tile 0 split");
    }
    if (split_keys > c.keys) {
      return "decode attention's " + std::to_string(c.splits) + " splits of " +
             std::to_string(shape.kv_len) + " keys exceed keys " + std::to_string(c.keys) +
             " a split";
    }
    const uint64_t loading = CeilDiv(uint64_t{c.keys} * columns, kTileLoads);
    if (c.wg < c.keys || c.wg < loading) {
      return "decode attention's v_tile wg " + std::to_string(c.wg) + " is below keys " +
             std::to_string(c.keys) + " or keys x head_dim / 32 = " + std::to_string(loading);
    }
  }
  // The reduction part's (the split's, with online statistics, also four vec4 a subgroup
  // slot), then q_tile, p_tile and lane_sums; the merge's merge_sums.
  auto reduction = [&](uint64_t wg) {
    return c.subgroups == 1 ? 2 * 16 * ((wg + 3) / 4) + 4 : 16 * wg;
  };
  const uint64_t stats = c.online == 1 ? 4 * 16 * ((uint64_t{c.wg} + 3) / 4) : 0;
  const uint64_t lanes = c.wg / columns;
  const uint64_t split_bytes =
      c.v_tile == 1 ? TileSplitBytes(c, shape)
                    : reduction(c.wg) + stats + 16 * 8 * columns + 16 * 2 * uint64_t{c.wg} +
                          16 * std::max<uint64_t>((lanes - 1) * 8 * columns, 1);
  const uint64_t merge_lanes = c.merge_wg / columns;
  const uint64_t merge_bytes =  // the flat and subgroup merges hold nothing in workgroup memory
      c.merge != 0
          ? 0
          : reduction(c.merge_wg) + 16 * std::max<uint64_t>((merge_lanes - 1) * columns, 1);
  const uint64_t partials = uint64_t{c.splits} * shape.heads * shape.head_dim * 4;
  return FirstRefusal(
      {WorkgroupRefusal(c.wg, split_bytes, "decode attention", limits),
       WorkgroupRefusal(c.merge_wg, merge_bytes, "decode attention's merge", limits),
       BindingRefusal(partials, "decode attention's split partials", limits)});
}

}  // namespace

const OpRules<AttentionShape, AttentionDecodeConfig> kAttentionDecodeRules{
    "the decode attention", &DecodeAxes, &DecodeResolve, &DecodeCheck};

AttentionDecodeParams DecodeParamsFor(const AttentionShape& s, const AttentionDecodeConfig& c) {
  return {.kv_len = s.kv_len,
          .heads = s.heads,
          .kv_heads = s.kv_heads,
          .position_offset = s.position_offset,
          .causal = s.causal ? 1u : 0u,
          .keys_per_split = static_cast<uint32_t>((uint64_t{s.kv_len} + c.splits - 1) / c.splits),
          .splits = c.splits,
          .scale_log2 = static_cast<float>(std::numbers::log2e / std::sqrt(s.head_dim))};
}

}  // namespace refract::ops
