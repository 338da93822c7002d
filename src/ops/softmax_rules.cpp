// The softmax ops' axes, default rule and limit checks: pure, no GPU.
#include "ops/softmax_op.h"

namespace refract::ops {
namespace {

Problem BaselineCheck(const NoConfig&, const SoftmaxShape& shape, const DeviceLimits& limits) {
  if (shape.rows == 0 || shape.row_size == 0) return "softmax needs rows and row_size above 0";
  return BindingProblem(uint64_t{4} * shape.rows * shape.row_size, "the softmax rows", limits);
}

const AxisTable<RowConfig>& TunedAxes() {
  static const AxisTable<RowConfig> kAxes = RowAxes(kSoftmaxRowKernel);
  return kAxes;
}

RowConfig TunedResolve(const SoftmaxShape& shape, const DeviceLimits& limits,
                       const Settings& settings) {
  return ResolveRow(kSoftmaxRowKernel, shape.row_size, limits, settings);
}

Problem TunedCheck(const RowConfig& c, const SoftmaxShape& shape, const DeviceLimits& limits) {
  return FirstProblem({BaselineCheck({}, shape, limits), CheckRow(kSoftmaxRowKernel, c, limits)});
}

}  // namespace

const FamilyRules<SoftmaxShape, RowConfig> kSoftmaxRules{
    {"the seed's softmax", &NoAxes, &NoResolve<SoftmaxShape>, &BaselineCheck},
    {"the tuned softmax", &TunedAxes, &TunedResolve, &TunedCheck}};

}  // namespace refract::ops
