#include "ops/binary_op.h"

#include "gpu/transfer.h"
#include "ops/compile.h"

namespace refract::ops {
namespace {

std::vector<gpu::Dispatch> RecordBinary(gpu::Context& context, const gpu::ComputePipeline& pipeline,
                                        const gpu::Buffer& params, uint32_t groups,
                                        const BinaryBuffers& b) {
  return {gpu::DispatchBuilder(context, pipeline)
              .Buffer(0, b.a)
              .Buffer(1, b.b)
              .Buffer(2, b.output)
              .Buffer(3, params)
              .Groups(groups)
              .Build()};
}

}  // namespace

BinaryBaselineOp::BinaryBaselineOp(gpu::Context& context, BinaryKind kind, uint64_t count,
                                   std::string label)
    : count_(static_cast<uint32_t>(count)) {
  ThrowIfProblem(Check(count, context.limits()), label);
  pipeline_ = CompileKernel(context, {"llm_add_mul_baseline"}, label, BinaryKindName(kind));
  params_ = gpu::Uniform(context, CountParams{count_, {}}, "binary params");
}

std::vector<gpu::Dispatch> BinaryBaselineOp::Record(gpu::Context& context,
                                                    const BinaryBuffers& buffers) const {
  return RecordBinary(context, pipeline_, params_, gpu::GroupsFor(count_, 256), buffers);
}

BinaryTunedOp::BinaryTunedOp(gpu::Context& context, BinaryKind kind, uint64_t count,
                             BinaryConfig config, std::string label)
    : count_(static_cast<uint32_t>(count)), config_(config) {
  ThrowIfProblem(Check(config, count, context.limits()), label);
  pipeline_ = CompileKernel(context, {"llm_add_mul_tuned"}, label, BinaryKindName(kind),
                            {{"WG", config.wg}, {"VPT", config.vpt}});
  params_ = gpu::Uniform(context, CountParams{count_, {}}, "binary params");
}

std::vector<gpu::Dispatch> BinaryTunedOp::Record(gpu::Context& context,
                                                 const BinaryBuffers& buffers) const {
  const uint32_t groups = gpu::GroupsFor(CeilDiv(count_, 4), config_.wg * config_.vpt);
  return RecordBinary(context, pipeline_, params_, groups, buffers);
}

}  // namespace refract::ops
