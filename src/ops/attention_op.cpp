#include "ops/attention_op.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "gpu/transfer.h"
#include "ops/compile.h"

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

}  // namespace

AttentionBaselineOp::AttentionBaselineOp(gpu::Context& context, AttentionShape shape,
                                         std::string label)
    : shape_(shape) {
  ThrowIfProblem(Check(shape, context.limits()), label);
  pipeline_ = CompileKernel(context, {"llm_attention_baseline"}, label);
  params_ = gpu::Uniform(context, BaselineParams{shape.seq_len,
                                                 shape.kv_len,
                                                 shape.heads,
                                                 shape.kv_heads,
                                                 shape.head_dim,
                                                 shape.position_offset,
                                                 {}});
}

std::vector<gpu::Dispatch> AttentionBaselineOp::Record(gpu::Context& context,
                                                       const AttentionBuffers& b) const {
  return {gpu::DispatchBuilder(context, pipeline_)
              .Buffer(0, b.q)
              .Buffer(1, b.k)
              .Buffer(2, b.v)
              .Buffer(3, b.out)
              .Buffer(4, params_)
              .Groups(shape_.seq_len, shape_.heads)
              .Build()};
}

AttentionTunedOp::AttentionTunedOp(gpu::Context& context, AttentionShape shape,
                                   AttentionConfig config, std::string label)
    : shape_(shape), config_(config), splits_(SplitsFor(config, shape)) {
  ThrowIfProblem(Check(config, shape, context.limits()), label);
  const std::map<std::string, double> constants = {
      {"HEAD_DIM", shape.head_dim}, {"TR", config.tr}, {"TC", config.tc},
      {"RQ", config.rq},            {"RK", config.rk}, {"V_TILES", config.v_tiles}};
  main_ = CompileKernel(context, {"llm_attention_tuned"}, label,
                        splits_ == 1 ? "main" : "main_split", constants);
  const uint32_t keys_per_split =
      config.split_keys == 0 ? shape.kv_len : std::min(config.split_keys, shape.kv_len);
  if (splits_ > 1) {
    combine_ = CompileKernel(context, {"llm_attention_tuned"}, label, "combine", constants);
    const uint64_t slots = uint64_t{splits_} * shape.kv_heads * shape.seq_len * shape.group();
    const uint32_t usage = gpu::kUsageStorage;
    part_o_ = context.CreateBuffer(slots * shape.head_dim * 4, usage, "attention partial outputs");
    part_ml_ = context.CreateBuffer(slots * 8, usage, "attention partial max and sum");
  }
  const float scale_log2 = static_cast<float>(std::numbers::log2e / std::sqrt(shape.head_dim));
  params_ = gpu::Uniform(
      context, TunedParams{shape.seq_len, shape.kv_len, shape.heads, shape.kv_heads,
                           shape.position_offset, shape.causal ? 1u : 0u,
                           keys_per_split, splits_,
                           scale_log2, shape.head_dim / 4, {}});
}

std::vector<gpu::Dispatch> AttentionTunedOp::Record(gpu::Context& context,
                                                    const AttentionBuffers& b) const {
  const uint64_t rows = uint64_t{shape_.seq_len} * shape_.group();
  const auto blocks = static_cast<uint32_t>(CeilDiv(rows, config_.BlockRows()));
  gpu::DispatchBuilder attend(context, main_);
  attend.Buffer(0, b.q).Buffer(1, b.k).Buffer(2, b.v).Buffer(4, params_);
  attend.Groups(blocks, shape_.kv_heads, splits_);
  if (splits_ == 1) return {attend.Buffer(3, b.out).Build()};
  gpu::Dispatch combine =
      gpu::DispatchBuilder(context, combine_)
          .Buffer(3, b.out)
          .Buffer(4, params_)
          .Buffer(5, part_o_)
          .Buffer(6, part_ml_)
          .Groups(gpu::GroupsFor(shape_.kv_heads * rows * (shape_.head_dim / 4), kCombineWorkgroup))
          .Build();
  return {attend.Buffer(5, part_o_).Buffer(6, part_ml_).Build(), combine};
}

}  // namespace refract::ops
