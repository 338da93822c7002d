// The quantizer's axis, default and limit check: pure, no GPU.
#include "ops/matmul_op.h"
#include "ops/quantize_op.h"

namespace refract::ops {
namespace {

const AxisTable<QuantizeConfig>& Axes() {
  static const AxisTable<QuantizeConfig> kAxes(
      {{WorkgroupAxis("64", {32, 64, 128, 256}, {64}), &QuantizeConfig::wg}});
  return kAxes;
}

Problem Check(const QuantizeConfig& c, const QuantizeShape& shape, const DeviceLimits& limits) {
  if (shape.k == 0 || shape.m == 0) return "the quantizer needs K and M above 0";
  const uint64_t blocks = uint64_t{shape.m} * Q4BlocksOf(shape.k);
  if (4 * blocks > uint64_t{UINT32_MAX}) {
    return "the quantizer's " + std::to_string(blocks) + " blocks exceed its 32-bit indices";
  }
  return FirstProblem(
      {WorkgroupProblem(c.wg, 8 * uint64_t{c.wg}, "the quantizer", limits),
       BindingProblem(uint64_t{4} * shape.m * shape.k, "the quantizer's x", limits)});
}

}  // namespace

const OpRules<QuantizeShape, QuantizeConfig> kQuantizeQ8Rules{
    "the q8 quantizer", &Axes, &ResolveFromDefaults<QuantizeShape, QuantizeConfig, &Axes>, &Check};

}  // namespace refract::ops
