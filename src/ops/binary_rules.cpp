// The add/mul ops' axes, default rule and limit checks: pure, no GPU.
#include "ops/binary_op.h"

namespace refract::ops {
namespace {

Problem CountProblem(uint64_t count, const DeviceLimits& limits) {
  if (count == 0 || count > UINT32_MAX) return "add and mul need 1 to 2^32 - 1 elements";
  return BindingProblem(CeilDiv(count, 4) * 16, "the element-wise operands", limits);
}

}  // namespace

const char* BinaryKindName(BinaryKind kind) { return kind == BinaryKind::kAdd ? "add" : "mul"; }

Problem BinaryBaselineOp::Check(uint64_t count, const DeviceLimits& limits) {
  return CountProblem(count, limits);
}

const AxisTable<BinaryConfig>& BinaryTunedOp::Axes() {
  static const AxisTable<BinaryConfig> kAxes({
      {{.name = "wg",
        .meaning = "invocations a workgroup",
        .default_rule = "256",
        .min = 32,
        .max = 1024,
        .power_of_two = true,
        .grid = {64, 128, 256, 512}},
       &BinaryConfig::wg},
      {{.name = "vpt",
        .meaning = "vec4 an invocation",
        .default_rule = "1",
        .min = 1,
        .max = 16,
        .grid = {1, 2, 4, 8}},
       &BinaryConfig::vpt},
  });
  return kAxes;
}

BinaryConfig BinaryTunedOp::Resolve(uint64_t, const DeviceLimits&, const Settings& settings) {
  return Axes().With(BinaryConfig{}, settings);
}

Problem BinaryTunedOp::Check(const BinaryConfig& c, uint64_t count, const DeviceLimits& limits) {
  if (auto problem = Axes().Disallowed(c)) return "the tuned add/mul's " + *problem;
  return FirstProblem(
      {CountProblem(count, limits), WorkgroupProblem(c.wg, 0, "the add/mul", limits)});
}

}  // namespace refract::ops
