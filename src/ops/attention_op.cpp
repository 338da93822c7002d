#include <algorithm>
#include <cmath>
#include <numbers>

#include "gpu/transfer.h"
#include "ops/op_kinds.h"

namespace refract::ops {
namespace {

constexpr uint32_t kCombineWorkgroup = 64;  // combine's @workgroup_size

// The seed's uniform (seed 003 §7), padded to 16 bytes.
struct BaselineParams {
  uint32_t t, s, num_q_heads, num_kv_heads, head_dim, position_offset, padding[2];
};
static_assert(sizeof(BaselineParams) == 32);

// llm_attention_tuned.wgsl's Params, padded to 16 bytes.
struct TunedParams {
  uint32_t seq_len, kv_len, heads, kv_heads, position_offset, causal, keys_per_split, splits;
  float scale_log2;
  uint32_t head_vec4, padding[2];
};
static_assert(sizeof(TunedParams) == 48);

Kernel BaselineCompile(gpu::Context& context, const AttentionShape& s, const NoConfig&,
                       const std::string& label) {
  const BaselineParams params{s.seq_len,  s.kv_len,          s.heads, s.kv_heads,
                              s.head_dim, s.position_offset, {}};
  return {.pipelines = {CompileKernel(context, {"llm_attention_baseline"}, label)},
          .buffers = {gpu::Uniform(context, params, "attention params")}};
}

std::vector<gpu::Dispatch> BaselineRecord(gpu::Context& context, const Kernel& k,
                                          const AttentionShape& s, const NoConfig&,
                                          const AttentionBuffers& b) {
  return {OneDispatch(context, k.pipelines[0], {b.q, b.k, b.v, b.out, k.buffers[0]}, s.seq_len,
                      s.heads)};
}

// Tuned kernel: pipelines {main or main_split, (combine)}, buffers {params}, scratch {(partial
// outputs, partial max and sum)}.
Kernel TunedCompile(gpu::Context& context, const AttentionShape& s, const AttentionConfig& c,
                    const std::string& label) {
  const uint32_t splits = AttentionSplits(c, s);
  const std::map<std::string, double> constants = {
      {"HEAD_DIM", s.head_dim}, {"TR", c.tr}, {"TC", c.tc}, {"RQ", c.rq}, {"RK", c.rk},
      {"V_TILES", c.v_tiles}};
  const uint32_t keys_per_split = splits == 1 ? s.kv_len : std::min(c.split_keys, s.kv_len);
  const float scale_log2 = static_cast<float>(std::numbers::log2e / std::sqrt(s.head_dim));
  const TunedParams params{s.seq_len,
                           s.kv_len,
                           s.heads,
                           s.kv_heads,
                           s.position_offset,
                           s.causal ? 1u : 0u,
                           keys_per_split,
                           splits,
                           scale_log2,
                           s.head_dim / 4,
                           {}};
  Kernel kernel{.pipelines = {CompileKernel(context, {"llm_attention_tuned"}, label,
                                            splits == 1 ? "main" : "main_split", constants)},
                .buffers = {gpu::Uniform(context, params, "attention params")}};
  if (splits > 1) {
    kernel.pipelines.push_back(
        CompileKernel(context, {"llm_attention_tuned"}, label, "combine", constants));
    const uint64_t slots = uint64_t{splits} * s.kv_heads * s.seq_len * s.group();
    kernel.scratch = {{slots * s.head_dim * 4, "attention partials"},
                      {slots * 8, "attention partial max and sum"}};
  }
  return kernel;
}

std::vector<gpu::Dispatch> TunedRecord(gpu::Context& context, const Kernel& k,
                                       const AttentionShape& s, const AttentionConfig& c,
                                       const AttentionBuffers& b) {
  const uint64_t rows = uint64_t{s.seq_len} * s.group();
  const auto blocks = static_cast<uint32_t>(CeilDiv(rows, c.BlockRows()));
  const uint32_t splits = AttentionSplits(c, s);
  const gpu::BufferSlice params = k.buffers[0];
  if (splits == 1) {
    return {
        OneDispatch(context, k.pipelines[0], {b.q, b.k, b.v, b.out, params}, blocks, s.kv_heads)};
  }
  const gpu::BufferSlice part_o = k.buffers[1], part_ml = k.buffers[2];
  const uint32_t merge_groups =
      gpu::GroupsFor(s.kv_heads * rows * (s.head_dim / 4), kCombineWorkgroup);
  return {OneDispatch(context, k.pipelines[0], {b.q, b.k, b.v, {}, params, part_o, part_ml}, blocks,
                      s.kv_heads, splits),
          OneDispatch(context, k.pipelines[1], {{}, {}, {}, b.out, params, part_o, part_ml},
                      merge_groups)};
}

// Decode kernel: pipelines {split (split_tile with v_tile), merge}, buffers {params}, scratch
// {partial outputs, (max, sum)}.
Kernel DecodeCompile(gpu::Context& context, const AttentionShape& s, const AttentionDecodeConfig& c,
                     const std::string& label) {
  std::map<std::string, double> constants = {
      {"WG", c.wg}, {"HEAD_DIM", s.head_dim}, {"GROUP", s.group()}};
  const std::string_view reduce =
      c.subgroups == 1 ? "llm_reduce_subgroup_part" : "llm_reduce_workgroup_part";
  const std::string_view stats =
      c.online == 1 ? "llm_attention_stats_subgroup_part" : "llm_attention_stats_workgroup_part";
  const AttentionDecodeParams params = DecodeParamsFor(s, c);
  const uint32_t keys_per_split = params.keys_per_split;
  std::map<std::string, double> merge_constants = constants;
  merge_constants["WG"] = c.merge_wg;
  if (c.v_tile == 1) {
    constants["KEYS"] = c.keys;
    constants["K_TILE"] = c.k_tile;
    constants["SPLIT_KV_HEADS"] = s.kv_heads;
    constants["SPLIT_KEYS"] = keys_per_split;
  }
  const uint64_t slots = uint64_t{c.splits} * s.heads;
  gpu::ComputePipeline split =
      c.v_tile == 1
          ? CompileKernel(context,
                          {reduce, stats, "llm_attention_decode", "llm_attention_decode_tile_part"},
                          label, "split_tile", constants)
          : CompileKernel(context, {reduce, stats, "llm_attention_decode"}, label, "split",
                          constants);
  gpu::ComputePipeline merge;
  if (c.merge == 1) {
    merge_constants["SPLITS"] = c.splits;
    merge = CompileKernel(
        context, {reduce, stats, "llm_attention_decode", "llm_attention_decode_flat_merge_part"},
        label, "merge_flat", merge_constants);
  } else if (c.merge == 2) {
    const uint32_t width = FixedSubgroupSize(context.limits());
    merge_constants["SG"] = width;
    merge_constants["SPLIT_STEPS"] = static_cast<double>(CeilDiv(c.splits, width));
    merge_constants["MERGE_HEADS"] = s.heads;
    merge_constants["MERGE_SPLITS"] = c.splits;
    merge = CompileKernel(
        context,
        {reduce, stats, "llm_attention_decode", "llm_attention_merge_fold_part",
         "llm_attention_decode_subgroup_merge_part"},
        label, "merge_subgroup", merge_constants);
  } else {
    merge = CompileKernel(context, {reduce, stats, "llm_attention_decode"}, label, "merge",
                          merge_constants);
  }
  return {.pipelines = {std::move(split), std::move(merge)},
          .buffers = {gpu::Uniform(context, params, "decode attention params")},
          .scratch = {{slots * s.head_dim * 4, "decode attention partials"},
                      {slots * 8, "decode attention partial max and sum"}}};
}

// The merge's workgroups: a query head each (merge 0), heads of head_dim / 4 invocations each
// (merge 1), subgroups of a (head, vec4 column) each (merge 2).
uint32_t MergeGroups(const gpu::Context& context, const AttentionShape& s,
                     const AttentionDecodeConfig& c) {
  const uint32_t columns = s.head_dim / 4;
  if (c.merge == 1) return static_cast<uint32_t>(CeilDiv(s.heads, c.merge_wg / columns));
  if (c.merge == 2) {
    const uint32_t pairs_a_group = c.merge_wg / FixedSubgroupSize(context.limits());
    return static_cast<uint32_t>(CeilDiv(uint64_t{s.heads} * columns, pairs_a_group));
  }
  return s.heads;
}

std::vector<gpu::Dispatch> DecodeRecord(gpu::Context& context, const Kernel& k,
                                        const AttentionShape& s, const AttentionDecodeConfig& c,
                                        const AttentionBuffers& b) {
  const gpu::BufferSlice params = b.params ? b.params : gpu::BufferSlice(k.buffers[0]);
  const gpu::BufferSlice part_o = b.part_o ? b.part_o : gpu::BufferSlice(k.buffers[1]);
  const gpu::BufferSlice part_ml = b.part_ml ? b.part_ml : gpu::BufferSlice(k.buffers[2]);
  return {OneDispatch(context, k.pipelines[0], {b.q, b.k, b.v, {}, params, part_o, part_ml},
                      c.splits, s.kv_heads),
          OneDispatch(context, k.pipelines[1], {{}, {}, {}, b.out, params, part_o, part_ml},
                      MergeGroups(context, s, c))};
}

}  // namespace

const OpKind<AttentionShape, AttentionDecodeConfig, AttentionBuffers> kAttentionDecode{
    kAttentionDecodeRules, &DecodeCompile, &DecodeRecord};

const Family<AttentionShape, AttentionConfig, AttentionBuffers> kAttentionOps{
    {kAttentionRules.baseline, &BaselineCompile, &BaselineRecord},
    {kAttentionRules.tuned, &TunedCompile, &TunedRecord}};

}  // namespace refract::ops
