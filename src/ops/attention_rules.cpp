// The attention ops' axes, default rule and limit checks: pure, no GPU.
#include <algorithm>

#include "ops/attention_op.h"

namespace refract::ops {

uint64_t AttentionConfig::WorkgroupBytes(uint32_t head_dim) const {
  const uint64_t dv = head_dim / 4, bq = BlockRows(), bk = TileKeys();
  return 16 * (bq * dv + v_tiles * bk * (dv + 1)) + 4 * (bq * bk + bq * tc);
}

uint32_t AttentionSplits(const AttentionConfig& c, const AttentionShape& s) {
  if (c.split_keys == 0 || c.split_keys >= s.kv_len) return 1;
  return (s.kv_len + c.split_keys - 1) / c.split_keys;
}

namespace {

// llm_attention_tuned.wgsl's register-array bound on an invocation's vec4 output columns.
constexpr uint32_t kMaxChunks = 16;
// Workgroups a tuned row aims for before it splits the keys: enough to give each multiprocessor
// of a large GPU (the H200 has 132) one; more splits cost a longer combine pass.
constexpr uint64_t kTargetWorkgroups = 128;

uint32_t Chunks(uint32_t head_dim, uint32_t tc) { return (head_dim / 4 + tc - 1) / tc; }

Problem ShapeProblem(const AttentionShape& s, const DeviceLimits& limits) {
  if (s.seq_len == 0 || s.kv_len == 0 || s.heads == 0 || s.kv_heads == 0 || s.head_dim == 0 ||
      s.heads % s.kv_heads != 0) {
    return "attention needs T, S, heads, head_dim above 0 and heads a multiple of kv_heads";
  }
  const uint64_t qo = 4ull * s.seq_len * s.heads * s.head_dim;
  const uint64_t kv = 4ull * s.kv_len * s.kv_heads * s.head_dim;
  return FirstProblem({BindingProblem(qo, "attention's q", limits),
                       BindingProblem(kv, "attention's k and v", limits)});
}

Problem BaselineCheck(const NoConfig&, const AttentionShape& shape, const DeviceLimits& limits) {
  if (!shape.causal)
    return "the baseline attention is the seed's causal kernel: no non-causal form";
  return ShapeProblem(shape, limits);
}

const AxisTable<AttentionConfig>& TunedAxes() {
  auto axis = [](const char* name, const char* meaning, uint32_t max, std::vector<uint32_t> grid) {
    return Axis{.name = name,
                .meaning = meaning,
                .default_rule = "decode 8/16/1/4, prefill 16/16/4/2 (tr/tc/rq/rk), halved to fit",
                .min = 1,
                .max = max,
                .grid = std::move(grid)};
  };
  static const AxisTable<AttentionConfig> kAxes({
      {axis("tr", "thread rows a workgroup", 64, {4, 8, 16}), &AttentionConfig::tr},
      {axis("tc", "threads sharing a row block and a tile's keys", 64, {8, 16, 32}),
       &AttentionConfig::tc},
      {axis("rq", "rows a thread owns", 4, {1, 2, 4}), &AttentionConfig::rq},
      {axis("rk", "keys a thread scores a tile", 8, {1, 2, 4}), &AttentionConfig::rk},
      {{.name = "v_tiles",
        .meaning = "2: V has its own tile in workgroup memory; 1: V reuses K's",
        .default_rule = "2, or 1 where two tiles do not fit",
        .min = 1,
        .max = 2,
        .grid = {1, 2}},
       &AttentionConfig::v_tiles},
      {{.name = "split_keys",
        .meaning = "keys one workgroup covers along S (0: all of them)",
        .default_rule = "whole tiles until the grid reaches 128 workgroups",
        .min = 0,
        .max = 1u << 20},
       &AttentionConfig::split_keys},
  });
  return kAxes;
}

AttentionConfig TunedResolve(const AttentionShape& shape, const DeviceLimits& limits,
                             const Settings& settings) {
  const uint32_t d = shape.head_dim;
  const bool decode = shape.seq_len == 1;
  AttentionConfig t = decode ? AttentionConfig{.tr = 8, .tc = 16, .rq = 1, .rk = 4}
                             : AttentionConfig{.tr = 16, .tc = 16, .rq = 4, .rk = 2};
  while (t.WorkgroupBytes(d) > limits.max_compute_workgroup_storage_size) {
    if (t.v_tiles == 2) {
      t.v_tiles = 1;
    } else if (t.rq > 1) {
      t.rq /= 2;
    } else if (t.rk > 1) {
      t.rk /= 2;
    } else if (t.tc > 1 && Chunks(d, t.tc / 2) <= kMaxChunks) {
      t.tc /= 2;
    } else if (t.tr > 1) {
      t.tr /= 2;
    } else {
      break;  // Check names the limit
    }
  }
  t = TunedAxes().With(t, settings);
  if (!settings.contains("split_keys") && shape.kv_heads > 0) {
    // Too few row blocks to fill the device (decode, short prompts, small encoders): split the
    // keys into whole tiles until the grid reaches kTargetWorkgroups.
    const uint64_t blocks =
        CeilDiv(uint64_t{shape.seq_len} * shape.group(), t.BlockRows()) * shape.kv_heads;
    const uint64_t tiles = CeilDiv(shape.kv_len, t.TileKeys());
    if (blocks < kTargetWorkgroups && tiles > 1) {
      const uint64_t splits = std::min(tiles, CeilDiv(kTargetWorkgroups, blocks));
      t.split_keys = static_cast<uint32_t>(CeilDiv(tiles, splits) * t.TileKeys());
    }
  }
  if (t.split_keys >= shape.kv_len) t.split_keys = 0;
  return t;
}

Problem TunedCheck(const AttentionConfig& c, const AttentionShape& shape,
                   const DeviceLimits& limits) {
  if (auto problem = ShapeProblem(shape, limits)) return problem;
  if (shape.head_dim % 4 != 0 || shape.head_dim > 512) {
    return "tuned attention needs head_dim a multiple of 4, at most 512";
  }
  if (Chunks(shape.head_dim, c.tc) > kMaxChunks) {
    return "the tuned attention's head_dim / (4 tc) exceeds 16 vec4 columns a thread";
  }
  const uint64_t rows = uint64_t{shape.seq_len} * shape.group();
  const uint64_t partials =
      uint64_t{AttentionSplits(c, shape)} * shape.kv_heads * rows * shape.head_dim * 4;
  return FirstProblem({WorkgroupProblem(c.Invocations(), c.WorkgroupBytes(shape.head_dim),
                                        "attention with these tiles", limits),
                       BindingProblem(partials, "attention's split partials", limits)});
}

// llm_attention_decode.wgsl's bound: query heads a KV head (two vec4 of scores).
constexpr uint32_t kDecodeMaxGroup = 8;

const AxisTable<AttentionDecodeConfig>& DecodeAxes() {
  static const AxisTable<AttentionDecodeConfig> kAxes({
      {PowerOfTwoAxis("wg", "invocations a workgroup: keys a split at most",
                      "64, or head_dim / 4 when more", 32, 1024, {32, 64, 128, 256}, {32, 64}),
       &AttentionDecodeConfig::wg},
      {CountAxis("splits", "workgroups along the cache a KV head (each at most wg keys)",
                 "ceil(S / wg)", 4096, {4, 8, 16, 32, 64, 128}, {8, 32}),
       &AttentionDecodeConfig::splits},
      {FlagAxis("subgroups", "1: reductions through subgroup operations; 0: workgroup memory",
                "1 where the device has subgroups"),
       &AttentionDecodeConfig::subgroups},
      {PowerOfTwoAxis("merge_wg", "the merge's invocations a workgroup (a query head's)",
                      "head_dim / 4 x ceil(splits / 4), 64 to 256", 32, 1024, {64, 128, 256},
                      {64, 256}),
       &AttentionDecodeConfig::merge_wg},
      {FlagAxis("online",
                "1: the split's softmax statistics a subgroup at a time, combined in one "
                "hand-off (needs subgroups); 0: four workgroup reductions",
                "0 (1 is not yet measured on a GPU)"),
       &AttentionDecodeConfig::online},
  });
  return kAxes;
}

AttentionDecodeConfig DecodeResolve(const AttentionShape& shape, const DeviceLimits& limits,
                                    const Settings& settings) {
  uint32_t wg = 64;
  while (wg < shape.head_dim / 4) wg *= 2;
  AttentionDecodeConfig c{.wg = std::min(wg, limits.max_compute_invocations_per_workgroup)};
  c = DecodeAxes().With(c, settings);
  c.splits = SettingOr(settings, "splits",
                       static_cast<uint32_t>(std::max<uint64_t>(CeilDiv(shape.kv_len, c.wg), 1)));
  c.subgroups = SettingOr(settings, "subgroups", limits.subgroups ? 1u : 0u);
  // Lanes enough for every split's partial in one step of four loads (the merge's loop takes
  // them four at a time), so that the merge waits on one round of loads.
  uint64_t merge_wg = 64;
  const uint64_t wanted = uint64_t{shape.head_dim / 4} * CeilDiv(c.splits, 4);
  while (merge_wg < wanted && merge_wg < 256) merge_wg *= 2;
  c.merge_wg = SettingOr(settings, "merge_wg",
                         static_cast<uint32_t>(std::min<uint64_t>(
                             merge_wg, limits.max_compute_invocations_per_workgroup)));
  return c;
}

Problem DecodeCheck(const AttentionDecodeConfig& c, const AttentionShape& shape,
                    const DeviceLimits& limits) {
  if (auto problem = ShapeProblem(shape, limits)) return problem;
  if (shape.seq_len != 1) return "the decode kernel takes one query position (T = 1)";
  if (shape.head_dim % 4 != 0 || shape.head_dim > 512) {
    return "decode attention needs head_dim a multiple of 4, at most 512";
  }
  const uint64_t group = shape.group(), columns = shape.head_dim / 4;
  if (group > kDecodeMaxGroup) return "decode attention serves at most 8 query heads a KV head";
  if (columns > c.wg) {
    return "decode attention's wg " + std::to_string(c.wg) + " covers head_dim " +
           std::to_string(4 * c.wg) + " at most (a vec4 column an invocation), not " +
           std::to_string(shape.head_dim);
  }
  if (columns > c.merge_wg) {
    return "decode attention's merge_wg " + std::to_string(c.merge_wg) +
           " covers head_dim " + std::to_string(4 * c.merge_wg) + " at most, not " +
           std::to_string(shape.head_dim);
  }
  if (CeilDiv(shape.kv_len, c.splits) > c.wg) {
    return "decode attention's " + std::to_string(c.splits) + " splits of " +
           std::to_string(shape.kv_len) + " keys exceed wg " + std::to_string(c.wg) +
           " keys a split";
  }
  if (c.subgroups == 1 && !limits.subgroups) return std::string("the device has no subgroups");
  if (c.online == 1 && c.subgroups != 1) {
    return std::string("decode attention's online statistics (online=1) need subgroups=1");
  }
  // The reduction part's (the split's, with online statistics, also four vec4 a subgroup
  // slot), then q_tile, p_tile and lane_sums; the merge's merge_sums.
  auto reduction = [&](uint64_t wg) {
    return c.subgroups == 1 ? 2 * 16 * ((wg + 3) / 4) + 4 : 16 * wg;
  };
  const uint64_t stats = c.online == 1 ? 4 * 16 * ((uint64_t{c.wg} + 3) / 4) : 0;
  const uint64_t lanes = c.wg / columns;
  const uint64_t split_bytes = reduction(c.wg) + stats + 16 * 8 * columns + 16 * 2 * uint64_t{c.wg} +
                               16 * std::max<uint64_t>((lanes - 1) * 8 * columns, 1);
  const uint64_t merge_lanes = c.merge_wg / columns;
  const uint64_t merge_bytes =
      reduction(c.merge_wg) + 16 * std::max<uint64_t>((merge_lanes - 1) * columns, 1);
  const uint64_t partials = uint64_t{c.splits} * shape.heads * shape.head_dim * 4;
  return FirstProblem(
      {WorkgroupProblem(c.wg, split_bytes, "decode attention", limits),
       WorkgroupProblem(c.merge_wg, merge_bytes, "decode attention's merge", limits),
       BindingProblem(partials, "decode attention's split partials", limits)});
}

}  // namespace

const OpRules<AttentionShape, AttentionDecodeConfig> kAttentionDecodeRules{
    "the decode attention", &DecodeAxes, &DecodeResolve, &DecodeCheck};

const FamilyRules<AttentionShape, AttentionConfig> kAttentionRules{
    {"the seed's attention", &NoAxes, &NoResolve<AttentionShape>, &BaselineCheck},
    {"the tuned attention", &TunedAxes, &TunedResolve, &TunedCheck}};

}  // namespace refract::ops
