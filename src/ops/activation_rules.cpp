// The activation ops' axes, default rule and limit checks: pure, no GPU.
#include <array>

#include "ops/activation_op.h"

namespace refract::ops {
namespace {

Problem BaselineCheck(const NoConfig&, const ActivationProblem& p, const DeviceLimits& limits) {
  if (p.count == 0 || p.count > UINT32_MAX) return "an activation needs 1 to 2^32 - 1 values";
  return BindingProblem(4 * p.count, "the activation's values", limits);
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

Problem TunedCheck(const ActivationConfig& c, const ActivationProblem& p,
                   const DeviceLimits& limits) {
  return FirstProblem(
      {BaselineCheck({}, p, limits), WorkgroupProblem(c.wg, 0, "the activation", limits)});
}

}  // namespace

std::string_view ActivationKindName(ActivationKind kind) {
  return std::array<std::string_view, 3>{"silu", "gelu", "silu-mul"}[static_cast<size_t>(kind)];
}

const FamilyRules<ActivationProblem, ActivationConfig> kActivationRules{
    {"the seed's activation", &NoAxes, &NoResolve<ActivationProblem>, &BaselineCheck},
    {"the tuned activation", &TunedAxes,
     &ResolveFromDefaults<ActivationProblem, ActivationConfig, &TunedAxes>, &TunedCheck}};

}  // namespace refract::ops
