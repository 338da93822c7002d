#include "ops/gemm_op.h"

#include "gpu/transfer.h"
#include "ops/compile.h"

namespace refract::ops {
GemmOp::GemmOp(gpu::Context& context, Weights weights, MatmulDims dims, GemmConfig c,
               std::string label)
    : weights_(weights), dims_(dims), config_(c) {
  ThrowIfProblem(Check(weights, c, dims, context.limits()), label);
  const std::string_view main_kernel = weights == Weights::kQ4 ? "llm_matmul_q4_tuned_gemm"
                                                               : "llm_matmul_f32_tuned_gemm";
  pipeline_ = CompileKernel(
      context, {"llm_gemm_core_part", main_kernel}, label, "main",
      {{"BM", c.bm}, {"BN", c.bn}, {"BK", c.bk}, {"TM", c.tm}, {"TN", c.tn}, {"A_PAD", c.a_pad}});
  params_ = gpu::Uniform(context, MatmulParams{dims.m, dims.k, dims.n, 0}, "gemm params");
}

std::vector<gpu::Dispatch> GemmOp::Record(gpu::Context& context, const GemmBuffers& b) const {
  gpu::DispatchBuilder builder(context, pipeline_);
  builder.Buffer(0, b.a).Buffer(1, b.w);
  if (weights_ == Weights::kQ4) {
    builder.Buffer(2, b.scales).Buffer(3, b.c).Buffer(4, params_);
  } else {
    builder.Buffer(2, b.c).Buffer(3, params_);
  }
  const auto groups_x = static_cast<uint32_t>(CeilDiv(dims_.n, config_.bn));
  const auto groups_y = static_cast<uint32_t>(CeilDiv(dims_.m, config_.bm));
  return {builder.Groups(groups_x, groups_y).Build()};
}

}  // namespace refract::ops
