// The add/mul ops' axes, default rule and limit checks: pure, no GPU.
#include "ops/binary_rules.h"

namespace refract::ops {
namespace {

Refusal BaselineCheck(const NoConfig&, const BinaryShape& p, const DeviceLimits& limits) {
  if (p.count == 0 || p.count > UINT32_MAX) return "add and mul need 1 to 2^32 - 1 elements";
  return BindingRefusal(CeilDiv(p.count, 4) * 16, "the element-wise operands", limits);
}

const AxisTable<BinaryConfig>& TunedAxes() {
  static const AxisTable<BinaryConfig> kAxes({
      {WorkgroupAxis(), &BinaryConfig::wg},
      {CountAxis("vpt", "vec4 an invocation", "1", 16, {1, 2, 4, 8}, {1, 4}), &BinaryConfig::vpt},
  });
  return kAxes;
}

Refusal TunedCheck(const BinaryConfig& c, const BinaryShape& p, const DeviceLimits& limits) {
  return FirstRefusal(
      {BaselineCheck({}, p, limits), WorkgroupRefusal(c.wg, 0, "the add/mul", limits)});
}

}  // namespace

const char* BinaryKindName(BinaryKind kind) { return kind == BinaryKind::kAdd ? "add" : "mul"; }

const FamilyRules<BinaryShape, BinaryConfig> kBinaryRules{
    {"the seed's add/mul", &NoAxes, &NoResolve<BinaryShape>, &BaselineCheck},
    {"the tuned add/mul", &TunedAxes, &ResolveFromDefaults<BinaryShape, BinaryConfig, &TunedAxes>,
     &TunedCheck}};

}  // namespace refract::ops
