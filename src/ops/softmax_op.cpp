#include "ops/softmax_op.h"

#include "gpu/transfer.h"
#include "ops/compile.h"

namespace refract::ops {
namespace {

// The seed's uniform (seed 003 §8), padded to 16 bytes; the tuned kernel's is the same.
struct SoftmaxParams {
  uint32_t rows, row_size, padding[2];
};

std::vector<gpu::Dispatch> RecordRows(gpu::Context& context, const gpu::ComputePipeline& pipeline,
                                      const gpu::Buffer& params, uint32_t rows,
                                      const SoftmaxBuffers& b) {
  return {gpu::DispatchBuilder(context, pipeline)
              .Buffer(0, b.input)
              .Buffer(1, b.output)
              .Buffer(2, params)
              .Groups(rows)
              .Build()};
}

}  // namespace

SoftmaxBaselineOp::SoftmaxBaselineOp(gpu::Context& context, SoftmaxShape shape, std::string label)
    : shape_(shape) {
  ThrowIfProblem(Check(shape, context.limits()), label);
  pipeline_ = CompileKernel(context, {"llm_softmax_baseline"}, label);
  params_ = gpu::Uniform(context, SoftmaxParams{shape.rows, shape.row_size, {}}, "softmax params");
}

std::vector<gpu::Dispatch> SoftmaxBaselineOp::Record(gpu::Context& context,
                                                     const SoftmaxBuffers& buffers) const {
  return RecordRows(context, pipeline_, params_, shape_.rows, buffers);
}

SoftmaxTunedOp::SoftmaxTunedOp(gpu::Context& context, SoftmaxShape shape, RowConfig config,
                               std::string label)
    : shape_(shape), config_(config) {
  ThrowIfProblem(Check(config, shape, context.limits()), label);
  pipeline_ = CompileKernel(
      context, {RowReductionPart(config), RowElementPart(shape.row_size), "llm_softmax_tuned"},
      label, "main", RowConstants(config));
  params_ = gpu::Uniform(context, SoftmaxParams{shape.rows, shape.row_size, {}}, "softmax params");
}

std::vector<gpu::Dispatch> SoftmaxTunedOp::Record(gpu::Context& context,
                                                  const SoftmaxBuffers& buffers) const {
  return RecordRows(context, pipeline_, params_, shape_.rows, buffers);
}

}  // namespace refract::ops
