#include "ops/embedding_op.h"

#include <string_view>

#include "gpu/transfer.h"
#include "ops/compile.h"

namespace refract::ops {
namespace {

/// Seed 003's embedding uniform {seq_len, hidden_size}, padded to 16 bytes.
struct EmbeddingParams {
  uint32_t seq_len, hidden, padding[2];
};

std::vector<gpu::Dispatch> RecordGather(gpu::Context& context, const gpu::ComputePipeline& pipeline,
                                        const gpu::Buffer& params, uint32_t groups,
                                        const EmbeddingBuffers& b) {
  return {gpu::DispatchBuilder(context, pipeline)
              .Buffer(0, b.ids)
              .Buffer(1, b.table)
              .Buffer(2, b.output)
              .Buffer(3, params)
              .Groups(groups)
              .Build()};
}

}  // namespace

EmbeddingBaselineOp::EmbeddingBaselineOp(gpu::Context& context, EmbeddingShape shape,
                                         std::string label)
    : shape_(shape) {
  ThrowIfProblem(Check(shape, context.limits()), label);
  pipeline_ = CompileKernel(context, {"llm_embedding_baseline"}, label);
  params_ = gpu::Uniform(context, EmbeddingParams{shape.tokens, shape.hidden, {}});
}

std::vector<gpu::Dispatch> EmbeddingBaselineOp::Record(gpu::Context& context,
                                                       const EmbeddingBuffers& b) const {
  const uint32_t groups = gpu::GroupsFor(uint64_t{shape_.tokens} * shape_.hidden, 256);
  return RecordGather(context, pipeline_, params_, groups, b);
}

EmbeddingTunedOp::EmbeddingTunedOp(gpu::Context& context, EmbeddingShape shape,
                                   EmbeddingConfig config, std::string label)
    : shape_(shape), config_(config) {
  ThrowIfProblem(Check(config, shape, context.limits()), label);
  const std::string_view entry = shape.hidden % 4 == 0 ? "main_vec4" : "main_scalar";
  pipeline_ = CompileKernel(context, {"llm_embedding_tuned"}, label, entry, {{"WG", config.wg}});
  params_ = gpu::Uniform(context, EmbeddingParams{shape.tokens, shape.hidden, {}});
}

std::vector<gpu::Dispatch> EmbeddingTunedOp::Record(gpu::Context& context,
                                                    const EmbeddingBuffers& b) const {
  const uint32_t groups = gpu::GroupsFor(CeilDiv(uint64_t{shape_.tokens} * shape_.hidden, 4),
                                         config_.wg);
  return RecordGather(context, pipeline_, params_, groups, b);
}

}  // namespace refract::ops
