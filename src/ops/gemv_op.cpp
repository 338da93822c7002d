#include "ops/gemv_op.h"

#include "gpu/transfer.h"
#include "ops/compile.h"

namespace refract::ops {
GemvOp::GemvOp(gpu::Context& context, Weights weights, MatmulDims dims, GemvConfig config,
               std::string label)
    : weights_(weights), dims_(dims), config_(config) {
  ThrowIfProblem(Check(weights, config, dims, context.limits()), label);
  const std::string_view reduce = config.subgroups == 1 ? "llm_gemv_reduce_subgroup_part"
                                                        : "llm_gemv_reduce_workgroup_part";
  const std::string_view main_kernel = weights == Weights::kQ4 ? "llm_matmul_q4_tuned_gemv"
                                                               : "llm_matmul_f32_tuned_gemv";
  pipeline_ = CompileKernel(context, {reduce, "llm_gemv_common_part", main_kernel}, label, "main",
                            {{"WG", config.wg}, {"TPR", config.tpr}, {"ROWS", config.rows}});
  params_ = gpu::Uniform(context, MatmulParams{dims.m, dims.k, dims.n, 0}, "gemv params");
}

std::vector<gpu::Dispatch> GemvOp::Record(gpu::Context& context, const GemvBuffers& b) const {
  gpu::DispatchBuilder builder(context, pipeline_);
  builder.Buffer(0, b.x).Buffer(1, b.w);
  if (weights_ == Weights::kQ4) {
    builder.Buffer(2, b.scales).Buffer(3, b.y).Buffer(4, params_);
  } else {
    builder.Buffer(2, b.y).Buffer(3, params_);
  }
  return {builder.Groups(gpu::GroupsFor(dims_.n, config_.RowsPerWorkgroup())).Build()};
}

}  // namespace refract::ops
