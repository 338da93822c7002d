// The normalisation ops' axes, default rule and limit checks: pure, no GPU.
#include "ops/norm_op.h"

namespace refract::ops {
namespace {

Problem NormBindings(const NormShape& shape, const DeviceLimits& limits) {
  return BindingProblem(uint64_t{4} * shape.rows * shape.hidden, "the normalisation's rows",
                        limits);
}

Problem ShapeProblem(const NormShape& shape) {
  if (shape.rows == 0 || shape.hidden == 0) return "a normalisation needs rows and hidden above 0";
  return std::nullopt;
}

}  // namespace

std::string_view NormKindName(NormKind kind) {
  constexpr std::string_view kNames[] = {"rmsnorm", "layernorm", "add-rmsnorm"};
  return kNames[static_cast<size_t>(kind)];
}

Problem NormBaselineOp::Check(NormKind, const NormShape& shape, const DeviceLimits& limits) {
  return FirstProblem({ShapeProblem(shape), NormBindings(shape, limits)});
}

const AxisTable<RowConfig>& NormTunedOp::Axes() {
  static const AxisTable<RowConfig> kAxes = RowAxes(kKernel);
  return kAxes;
}

RowConfig NormTunedOp::Resolve(const NormShape& shape, const DeviceLimits& limits,
                               const Settings& settings) {
  return ResolveRow(kKernel, shape.hidden, limits, settings);
}

Problem NormTunedOp::Check(NormKind, const RowConfig& c, const NormShape& shape,
                           const DeviceLimits& limits) {
  if (auto problem = FirstProblem({ShapeProblem(shape), CheckRow(kKernel, c, limits)})) {
    return problem;
  }
  const uint32_t width = RowWidth(shape.hidden);
  if (uint64_t{c.wg} * c.vpt * width < shape.hidden) {
    return "the tuned normalisation keeps its row in registers: hidden " +
           std::to_string(shape.hidden) + " exceeds wg " + std::to_string(c.wg) + " x vpt " +
           std::to_string(c.vpt) + " x " + std::to_string(width);
  }
  return NormBindings(shape, limits);
}

}  // namespace refract::ops
