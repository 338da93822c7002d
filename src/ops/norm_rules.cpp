// The normalisation ops' axes, default rule and limit checks: pure, no GPU.
#include <array>

#include "ops/norm_op.h"

namespace refract::ops {
namespace {

Problem ShapeProblem(const NormProblem& p, const DeviceLimits& limits) {
  if (p.shape.rows == 0 || p.shape.hidden == 0) {
    return "a normalisation needs rows and hidden above 0";
  }
  return BindingProblem(uint64_t{4} * p.shape.rows * p.shape.hidden, "the normalisation's rows",
                        limits);
}

Problem BaselineCheck(const NoConfig&, const NormProblem& p, const DeviceLimits& limits) {
  return ShapeProblem(p, limits);
}

const AxisTable<RowConfig>& TunedAxes() {
  static const AxisTable<RowConfig> kAxes = RowAxes(kNormRowKernel);
  return kAxes;
}

RowConfig TunedResolve(const NormProblem& p, const DeviceLimits& limits, const Settings& settings) {
  return ResolveRow(kNormRowKernel, p.shape.hidden, limits, settings);
}

Problem TunedCheck(const RowConfig& c, const NormProblem& p, const DeviceLimits& limits) {
  const uint32_t hidden = p.shape.hidden, width = RowWidth(hidden);
  if (hidden > 0 && uint64_t{c.wg} * c.vpt * width < hidden) {
    return "the tuned normalisation keeps its row in registers: hidden " + std::to_string(hidden) +
           " exceeds wg " + std::to_string(c.wg) + " x vpt " + std::to_string(c.vpt) + " x " +
           std::to_string(width);
  }
  return FirstProblem({ShapeProblem(p, limits), CheckRow(kNormRowKernel, c, limits)});
}

}  // namespace

std::string_view NormKindName(NormKind kind) {
  return std::array<std::string_view, 3>{"rmsnorm", "layernorm",
                                         "add-rmsnorm"}[static_cast<size_t>(kind)];
}

const FamilyRules<NormProblem, RowConfig> kNormRules{
    {"the seed's normalisation", &NoAxes, &NoResolve<NormProblem>, &BaselineCheck},
    {"the tuned normalisation", &TunedAxes, &TunedResolve, &TunedCheck}};

}  // namespace refract::ops
