#include "ops/activation_op.h"

#include "gpu/transfer.h"
#include "ops/compile.h"

namespace refract::ops {
namespace {

constexpr uint32_t kSeedWorkgroup = 256;

// Each kind's tuned entry point.
std::string_view Entry(ActivationKind kind) {
  constexpr std::string_view kEntries[] = {"silu", "gelu", "silu_mul"};
  return kEntries[static_cast<size_t>(kind)];
}

}  // namespace

ActivationBaselineOp::ActivationBaselineOp(gpu::Context& context, ActivationKind kind,
                                           uint64_t count, std::string label)
    : kind_(kind), count_(static_cast<uint32_t>(count)) {
  ThrowIfProblem(Check(kind, count, context.limits()), label);
  first_ = CompileKernel(context, {"llm_activation_baseline"}, label,
                         kind == ActivationKind::kGelu ? "gelu" : "silu");
  if (kind == ActivationKind::kSiluMul) {
    mul_ = CompileKernel(context, {"llm_add_mul_baseline"}, label, "mul");
    intermediate_ = context.CreateBuffer(4 * count, gpu::kUsageStorage, "silu(gate)");
  }
  params_ = gpu::Uniform(context, CountParams{count_, {}}, "activation params");
}

std::vector<gpu::Dispatch> ActivationBaselineOp::Record(gpu::Context& context,
                                                        const ActivationBuffers& b) const {
  const uint32_t groups = gpu::GroupsFor(count_, kSeedWorkgroup);
  const bool gated = kind_ == ActivationKind::kSiluMul;
  const gpu::BufferSlice first_y = gated ? gpu::BufferSlice(intermediate_) : b.y;
  std::vector<gpu::Dispatch> dispatches = {gpu::DispatchBuilder(context, first_)
                                               .Buffer(0, b.x)
                                               .Buffer(1, first_y)
                                               .Buffer(2, params_)
                                               .Groups(groups)
                                               .Build()};
  if (gated) {
    dispatches.push_back(gpu::DispatchBuilder(context, mul_)
                             .Buffer(0, first_y)
                             .Buffer(1, b.up)
                             .Buffer(2, b.y)
                             .Buffer(3, params_)
                             .Groups(groups)
                             .Build());
  }
  return dispatches;
}

ActivationTunedOp::ActivationTunedOp(gpu::Context& context, ActivationKind kind, uint64_t count,
                                     ActivationConfig config, std::string label)
    : kind_(kind), count_(static_cast<uint32_t>(count)), config_(config) {
  ThrowIfProblem(Check(kind, config, count, context.limits()), label);
  const bool vec4 = count % 4 == 0;
  pipeline_ = CompileKernel(
      context, {vec4 ? "llm_row_vec4_part" : "llm_row_scalar_part", "llm_activation_tuned"}, label,
      Entry(kind), {{"WG", config.wg}, {"EPT", config.ept}});
  params_ = gpu::Uniform(context, CountParams{count_, {}}, "activation params");
}

std::vector<gpu::Dispatch> ActivationTunedOp::Record(gpu::Context& context,
                                                     const ActivationBuffers& b) const {
  const uint32_t width = count_ % 4 == 0 ? 4 : 1;
  gpu::DispatchBuilder builder(context, pipeline_);
  builder.Buffer(0, b.x).Buffer(1, b.y).Buffer(2, params_);
  if (kind_ == ActivationKind::kSiluMul) builder.Buffer(3, b.up);
  return {builder.Groups(gpu::GroupsFor(count_ / width, config_.wg * config_.ept)).Build()};
}

}  // namespace refract::ops
