// The activation ops' axes, default rule and limit checks: pure, no GPU.
#include <array>

#include "ops/activation_rules.h"

namespace refract::ops {
namespace {

Refusal BaselineCheck(const NoConfig&, const ActivationShape& p, const DeviceLimits& limits) {
  if (p.count == 0 || p.count > UINT32_MAX) return "an activation needs 1 to 2^32 - 1 values";
  return BindingRefusal(4 * p.count, "the activation's values", limits);
}

const AxisTable<ActivationConfig>& TunedAxes() {
  static const AxisTable<ActivationConfig> kAxes({
      {WorkgroupAxis(), &ActivationConfig::wg},
      {CountAxis("ept", "elements (vec4 where the count is a multiple of 4) an invocation", "2", 16,
                 {1, 2, 4, 8}, {2, 8}),
       &ActivationConfig::ept},
  });
  return kAxes;
}

Refusal TunedCheck(const ActivationConfig& c, const ActivationShape& p,
                   const DeviceLimits& limits) {
  return FirstRefusal(
      {BaselineCheck({}, p, limits), WorkgroupRefusal(c.wg, 0, "the activation", limits)});
}

}  // namespace

std::string_view ActivationKindName(ActivationKind kind) {
  return std::array<std::string_view, 3>{"silu", "gelu", "silu-mul"}[static_cast<size_t>(kind)];
}

const FamilyRules<ActivationShape, ActivationConfig> kActivationRules{
    {"the seed's activation", &NoAxes, &NoResolve<ActivationShape>, &BaselineCheck},
    {"the tuned activation", &TunedAxes,
     &ResolveFromDefaults<ActivationShape, ActivationConfig, &TunedAxes>, &TunedCheck}};

}  // namespace refract::ops
