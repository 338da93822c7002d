// The softmax ops' axes, default rule and limit checks: pure, no GPU.
#include "ops/softmax_op.h"

namespace refract::ops {
namespace {

Problem ShapeProblem(const SoftmaxShape& shape, const DeviceLimits& limits) {
  if (shape.rows == 0 || shape.row_size == 0) return "softmax needs rows and row_size above 0";
  return BindingProblem(uint64_t{4} * shape.rows * shape.row_size, "the softmax rows", limits);
}

}  // namespace

Problem SoftmaxBaselineOp::Check(const SoftmaxShape& shape, const DeviceLimits& limits) {
  return ShapeProblem(shape, limits);
}

const AxisTable<RowConfig>& SoftmaxTunedOp::Axes() {
  static const AxisTable<RowConfig> kAxes = RowAxes(kKernel);
  return kAxes;
}

RowConfig SoftmaxTunedOp::Resolve(const SoftmaxShape& shape, const DeviceLimits& limits,
                                  const Settings& settings) {
  return ResolveRow(kKernel, shape.row_size, limits, settings);
}

Problem SoftmaxTunedOp::Check(const RowConfig& config, const SoftmaxShape& shape,
                              const DeviceLimits& limits) {
  return FirstProblem({ShapeProblem(shape, limits), CheckRow(kKernel, config, limits)});
}

}  // namespace refract::ops
