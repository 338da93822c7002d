// The normalisation ops' axes, default rule and limit checks: pure, no GPU.
#include <array>

#include "ops/norm_rules.h"

namespace refract::ops {
namespace {

Refusal ShapeRefusal(const NormShape& p, const DeviceLimits& limits) {
  if (p.shape.rows == 0 || p.shape.hidden == 0) {
    return "a normalisation needs rows and hidden above 0";
  }
  return BindingRefusal(uint64_t{4} * p.shape.rows * p.shape.hidden, "the normalisation's rows",
                        limits);
}

Refusal BaselineCheck(const NoConfig&, const NormShape& p, const DeviceLimits& limits) {
  return ShapeRefusal(p, limits);
}

const AxisTable<RowConfig>& TunedAxes() {
  static const AxisTable<RowConfig> kAxes = RowAxes(kNormRowKernel);
  return kAxes;
}

RowConfig TunedResolve(const NormShape& p, const DeviceLimits& limits, const Settings& settings) {
  return ResolveRow(kNormRowKernel, p.shape.hidden, limits, settings);
}

Refusal TunedCheck(const RowConfig& c, const NormShape& p, const DeviceLimits& limits) {
  const uint32_t hidden = p.shape.hidden, width = RowWidth(hidden);
  if (hidden > 0 && uint64_t{c.wg} * c.vpt * width < hidden) {
    return "the tuned normalisation keeps its row in registers: hidden " + std::to_string(hidden) +
           " exceeds wg " + std::to_string(c.wg) + " x vpt " + std::to_string(c.vpt) + " x " +
           std::to_string(width);
  }
  return FirstRefusal({ShapeRefusal(p, limits), CheckRow(kNormRowKernel, c, limits)});
}

}  // namespace

std::string_view NormKindName(NormKind kind) {
  return std::array<std::string_view, 3>{"rmsnorm", "layernorm",
                                         "add-rmsnorm"}[static_cast<size_t>(kind)];
}

const FamilyRules<NormShape, RowConfig> kNormRules{
    {"the seed's normalisation", &NoAxes, &NoResolve<NormShape>, &BaselineCheck},
    {"the tuned normalisation", &TunedAxes, &TunedResolve, &TunedCheck}};

}  // namespace refract::ops
