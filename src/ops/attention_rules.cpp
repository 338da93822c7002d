// The flash attention ops' axes, default rule and limit checks (the seed's and the tuned
// kernel's), and the shape checks decode attention shares: pure, no GPU.
#include <algorithm>

#include "ops/attention_rules.h"

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

}  // namespace

Refusal AttentionShapeRefusal(const AttentionShape& s, const DeviceLimits& limits) {
  if (s.seq_len == 0 || s.kv_len == 0 || s.heads == 0 || s.kv_heads == 0 || s.head_dim == 0 ||
      s.heads % s.kv_heads != 0) {
    return "attention needs T, S, heads, head_dim above 0 and heads a multiple of kv_heads";
  }
  const uint64_t qo = 4ull * s.seq_len * s.heads * s.head_dim;
  const uint64_t kv = 4ull * s.kv_len * s.kv_heads * s.head_dim;
  return FirstRefusal({BindingRefusal(qo, "attention's q", limits),
                       BindingRefusal(kv, "attention's k and v", limits)});
}

namespace {

Refusal BaselineCheck(const NoConfig&, const AttentionShape& shape, const DeviceLimits& limits) {
  if (!shape.causal)
    return "the baseline attention is the seed's causal kernel: no non-causal form";
  return AttentionShapeRefusal(shape, limits);
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

Refusal TunedCheck(const AttentionConfig& c, const AttentionShape& shape,
                   const DeviceLimits& limits) {
  if (auto problem = AttentionShapeRefusal(shape, limits)) return problem;
  if (shape.head_dim % 4 != 0 || shape.head_dim > 512) {
    return "tuned attention needs head_dim a multiple of 4, at most 512";
  }
  if (Chunks(shape.head_dim, c.tc) > kMaxChunks) {
    return "the tuned attention's head_dim / (4 tc) exceeds 16 vec4 columns a thread";
  }
  const uint64_t rows = uint64_t{shape.seq_len} * shape.group();
  const uint64_t partials =
      uint64_t{AttentionSplits(c, shape)} * shape.kv_heads * rows * shape.head_dim * 4;
  return FirstRefusal({WorkgroupRefusal(c.Invocations(), c.WorkgroupBytes(shape.head_dim),
                                        "attention with these tiles", limits),
                       BindingRefusal(partials, "attention's split partials", limits)});
}

}  // namespace

const FamilyRules<AttentionShape, AttentionConfig> kAttentionRules{
    {"the seed's attention", &NoAxes, &NoResolve<AttentionShape>, &BaselineCheck},
    {"the tuned attention", &TunedAxes, &TunedResolve, &TunedCheck}};

}  // namespace refract::ops
