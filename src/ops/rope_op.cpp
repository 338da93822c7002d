#include "ops/rope_op.h"

#include <algorithm>
#include <bit>

#include "gpu/transfer.h"
#include "ops/compile.h"

namespace refract::ops {
namespace {

// The seed's uniform (§6), padded to 16 bytes.
struct BaselineParams {
  uint32_t seq_len, heads, kv_heads, head_dim, base_bits, position_offset, padding[2];
};
// llm_rope_tuned.wgsl's uniform.
struct TunedParams {
  uint32_t seq_len, heads, kv_heads, head_dim, position_offset, padding[3];
};

}  // namespace

RopeBaselineOp::RopeBaselineOp(gpu::Context& context, RopeShape shape, std::string label)
    : shape_(shape) {
  ThrowIfProblem(Check(shape, context.limits()), label);
  pipeline_ = CompileKernel(context, {"llm_rope_baseline"}, label);
  params_ = gpu::Uniform(context, BaselineParams{shape.seq_len,
                                                 shape.heads,
                                                 shape.kv_heads,
                                                 shape.head_dim,
                                                 std::bit_cast<uint32_t>(shape.base),
                                                 shape.position_offset,
                                                 {}});
}

std::vector<gpu::Dispatch> RopeBaselineOp::Record(gpu::Context& context,
                                                  const RopeBuffers& b) const {
  const uint64_t pairs =
      uint64_t{shape_.seq_len} * std::max(shape_.heads, shape_.kv_heads) * (shape_.head_dim / 2);
  return {gpu::DispatchBuilder(context, pipeline_)
              .Buffer(0, b.q)
              .Buffer(1, b.k)
              .Buffer(2, params_)
              .Groups(gpu::GroupsFor(pairs, 256))
              .Build()};
}

RopeTunedOp::RopeTunedOp(gpu::Context& context, RopeShape shape, RopeConfig config,
                         std::string label)
    : shape_(shape), config_(config) {
  ThrowIfProblem(Check(config, shape, context.limits()), label);
  pipeline_ = CompileKernel(context, {"llm_rope_tuned"}, label, "main",
                            {{"WG", config.wg}, {"HPT", config.hpt}});
  params_ = gpu::Uniform(context, TunedParams{shape.seq_len,
                                              shape.heads,
                                              shape.kv_heads,
                                              shape.head_dim,
                                              shape.position_offset,
                                              {}});
  inv_freq_ = gpu::Upload(context, RopeInverseFrequencies(shape), gpu::kUsageStorage,
                          "rope inverse frequencies");
}

std::vector<gpu::Dispatch> RopeTunedOp::Record(gpu::Context& context, const RopeBuffers& b) const {
  const uint32_t heads = shape_.heads + shape_.kv_heads;
  const uint64_t invocations =
      uint64_t{shape_.seq_len} * CeilDiv(heads, config_.hpt) * (shape_.head_dim / 4);
  return {gpu::DispatchBuilder(context, pipeline_)
              .Buffer(0, b.q)
              .Buffer(1, b.k)
              .Buffer(2, inv_freq_)
              .Buffer(3, params_)
              .Groups(gpu::GroupsFor(invocations, config_.wg))
              .Build()};
}

}  // namespace refract::ops
