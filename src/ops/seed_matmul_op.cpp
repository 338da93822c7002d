#include "ops/seed_matmul_op.h"

#include "gpu/transfer.h"
#include "ops/compile.h"

namespace refract::ops {

SeedMatmulOp::SeedMatmulOp(gpu::Context& context, Weights weights, MatmulDims dims,
                           std::string label)
    : weights_(weights), dims_(dims) {
  ThrowIfProblem(Check(weights, dims, context.limits()), label);
  const bool q4 = weights == Weights::kQ4;
  pipeline_ =
      CompileKernel(context, {q4 ? "llm_matmul_q4_baseline" : "llm_matmul_f32_baseline"}, label);
  params_ = gpu::Uniform(context, MatmulParams{dims.m, dims.k, dims.n, q4 ? kSeedInt4GroupSize : 0},
                         "seed matmul params");
}

std::vector<gpu::Dispatch> SeedMatmulOp::Record(gpu::Context& context,
                                                const SeedMatmulBuffers& b) const {
  gpu::DispatchBuilder builder(context, pipeline_);
  builder.Buffer(0, b.a).Buffer(1, b.b);
  if (weights_ == Weights::kQ4) {
    builder.Buffer(2, b.scales).Buffer(3, b.zeros).Buffer(4, b.c).Buffer(5, params_);
  } else {
    builder.Buffer(2, b.c).Buffer(3, params_);
  }
  const auto groups_x = static_cast<uint32_t>(CeilDiv(dims_.n, 16));
  const auto groups_y = static_cast<uint32_t>(CeilDiv(dims_.m, 16));
  return {builder.Groups(groups_x, groups_y).Build()};
}

}  // namespace refract::ops
