// The activation ops' axes, default rule and limit checks: pure, no GPU.
#include "ops/activation_op.h"

namespace refract::ops {
namespace {

Problem CountProblem(uint64_t count, const DeviceLimits& limits) {
  if (count == 0 || count > UINT32_MAX) return "an activation needs 1 to 2^32 - 1 values";
  return BindingProblem(4 * count, "the activation's values", limits);
}

}  // namespace

std::string_view ActivationKindName(ActivationKind kind) {
  constexpr std::string_view kNames[] = {"silu", "gelu", "silu-mul"};
  return kNames[static_cast<size_t>(kind)];
}

Problem ActivationBaselineOp::Check(ActivationKind, uint64_t count, const DeviceLimits& limits) {
  return CountProblem(count, limits);
}

const AxisTable<ActivationConfig>& ActivationTunedOp::Axes() {
  static const AxisTable<ActivationConfig> kAxes({
      {{.name = "wg",
        .meaning = "invocations a workgroup",
        .default_rule = "256",
        .min = 32,
        .max = 1024,
        .power_of_two = true,
        .grid = {64, 128, 256, 512}},
       &ActivationConfig::wg},
      {{.name = "ept",
        .meaning = "elements (vec4 where the count is a multiple of 4) an invocation",
        .default_rule = "2",
        .min = 1,
        .max = 16,
        .grid = {1, 2, 4, 8}},
       &ActivationConfig::ept},
  });
  return kAxes;
}

ActivationConfig ActivationTunedOp::Resolve(uint64_t, const DeviceLimits&,
                                            const Settings& settings) {
  return Axes().With(ActivationConfig{}, settings);
}

Problem ActivationTunedOp::Check(ActivationKind, const ActivationConfig& c, uint64_t count,
                                 const DeviceLimits& limits) {
  if (auto problem = Axes().Disallowed(c)) return "the tuned activation's " + *problem;
  return FirstProblem(
      {CountProblem(count, limits), WorkgroupProblem(c.wg, 0, "the activation", limits)});
}

}  // namespace refract::ops
