// The quantizer's axis, default and limit check: pure, no GPU.
#include "ops/matmul_rules.h"
#include "ops/quantize_rules.h"

namespace refract::ops {
namespace {

const AxisTable<QuantizeConfig>& Axes() {
  static const AxisTable<QuantizeConfig> kAxes(
      {{WorkgroupAxis("64", {32, 64, 128, 256}, {64}), &QuantizeConfig::wg},
       {FlagAxis("subgroups",
                 "1: a block's four invocations combine by subgroup shuffles; 0: through "
                 "workgroup memory",
                 "1 where the device has subgroups"),
        &QuantizeConfig::subgroups}});
  return kAxes;
}

QuantizeConfig Resolve(const QuantizeShape&, const DeviceLimits& limits, const Settings& settings) {
  QuantizeConfig c = Axes().With(QuantizeConfig{}, settings);
  c.subgroups = SettingOr(settings, "subgroups", limits.subgroups ? 1u : 0u);
  return c;
}

Refusal Check(const QuantizeConfig& c, const QuantizeShape& shape, const DeviceLimits& limits) {
  if (shape.k == 0 || shape.m == 0) return "the quantizer needs K and M above 0";
  const uint64_t blocks = uint64_t{shape.m} * Q4BlocksOf(shape.k);
  if (4 * blocks > uint64_t{UINT32_MAX}) {
    return "the quantizer's " + std::to_string(blocks) + " blocks exceed its 32-bit indices";
  }
  if (c.subgroups == 1 && !limits.subgroups) {
    return std::string("the quantizer's subgroup shuffles (subgroups=1) need subgroups");
  }
  return FirstRefusal(
      {WorkgroupRefusal(c.wg, c.subgroups == 1 ? 0 : 8 * uint64_t{c.wg}, "the quantizer", limits),
       BindingRefusal(uint64_t{4} * shape.m * shape.k, "the quantizer's x", limits)});
}

}  // namespace

const OpRules<QuantizeShape, QuantizeConfig> kQuantizeQ8Rules{"the q8 quantizer", &Axes, &Resolve,
                                                              &Check};

}  // namespace refract::ops
