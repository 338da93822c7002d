#include "ops/norm_op.h"

#include <bit>

#include "gpu/transfer.h"
#include "ops/compile.h"

namespace refract::ops {
namespace {

// The seed's uniform (§4, §5), padded to 16 bytes; the tuned kernel's is the same.
struct NormParams {
  uint32_t rows, hidden, eps_bits, pad;
};

// Each kind's tuned entry point (and the seed's for rmsnorm and layernorm).
std::string_view Entry(NormKind kind) {
  constexpr std::string_view kEntries[] = {"rmsnorm", "layernorm", "add_rmsnorm"};
  return kEntries[static_cast<size_t>(kind)];
}

NormParams Params(const NormShape& shape) {
  return {shape.rows, shape.hidden, std::bit_cast<uint32_t>(shape.eps), 0};
}

}  // namespace

NormBaselineOp::NormBaselineOp(gpu::Context& context, NormKind kind, NormShape shape,
                               std::string label)
    : kind_(kind), shape_(shape) {
  ThrowIfProblem(Check(kind, shape, context.limits()), label);
  const bool add = kind == NormKind::kAddRmsNorm;
  norm_ = CompileKernel(context, {"llm_norm_baseline"}, label, add ? "rmsnorm" : Entry(kind));
  if (add) {
    add_ = CompileKernel(context, {"llm_add_mul_baseline"}, label, "add");
    add_params_ = gpu::Uniform(context, CountParams{shape.rows * shape.hidden, {}}, "add params");
  }
  params_ = gpu::Uniform(context, Params(shape), "norm params");
}

std::vector<gpu::Dispatch> NormBaselineOp::Record(gpu::Context& context,
                                                  const NormBuffers& b) const {
  gpu::DispatchBuilder norm(context, norm_);
  if (kind_ == NormKind::kAddRmsNorm) {
    const uint64_t count = uint64_t{shape_.rows} * shape_.hidden;
    gpu::Dispatch add = gpu::DispatchBuilder(context, add_)
                            .Buffer(0, b.x)
                            .Buffer(1, b.b)
                            .Buffer(2, b.h)
                            .Buffer(3, add_params_)
                            .Groups(gpu::GroupsFor(count, 256))
                            .Build();
    norm.Buffer(0, b.h).Buffer(1, b.weight).Buffer(2, b.y).Buffer(3, params_);
    return {add, norm.Groups(shape_.rows).Build()};
  }
  norm.Buffer(0, b.x).Buffer(1, b.weight);
  if (kind_ == NormKind::kLayerNorm) {
    norm.Buffer(2, b.bias).Buffer(3, b.y).Buffer(4, params_);
  } else {
    norm.Buffer(2, b.y).Buffer(3, params_);
  }
  return {norm.Groups(shape_.rows).Build()};
}

NormTunedOp::NormTunedOp(gpu::Context& context, NormKind kind, NormShape shape, RowConfig config,
                         std::string label)
    : kind_(kind), shape_(shape), config_(config) {
  ThrowIfProblem(Check(kind, config, shape, context.limits()), label);
  pipeline_ = CompileKernel(context,
                            {RowReductionPart(config), RowElementPart(shape.hidden), "llm_norm_tuned"},
                            label, Entry(kind), RowConstants(config));
  params_ = gpu::Uniform(context, Params(shape), "norm params");
}

std::vector<gpu::Dispatch> NormTunedOp::Record(gpu::Context& context, const NormBuffers& b) const {
  gpu::DispatchBuilder norm(context, pipeline_);
  norm.Buffer(0, b.x).Buffer(1, b.weight).Buffer(2, b.y).Buffer(3, params_);
  if (kind_ == NormKind::kLayerNorm) norm.Buffer(4, b.bias);
  if (kind_ == NormKind::kAddRmsNorm) norm.Buffer(5, b.b).Buffer(6, b.h);
  return {norm.Groups(shape_.rows).Build()};
}

}  // namespace refract::ops
