// The softmax ops' axes, default rule and limit checks: pure, no GPU.
#include "ops/softmax_rules.h"

namespace refract::ops {
namespace {

Refusal BaselineCheck(const NoConfig&, const SoftmaxShape& shape, const DeviceLimits& limits) {
  if (shape.rows == 0 || shape.row_size == 0) return "softmax needs rows and row_size above 0";
  return BindingRefusal(uint64_t{4} * shape.rows * shape.row_size, "the softmax rows", limits);
}

const AxisTable<RowConfig>& TunedAxes() {
  static const AxisTable<RowConfig> kAxes = RowAxes(kSoftmaxRowKernel);
  return kAxes;
}

RowConfig TunedResolve(const SoftmaxShape& shape, const DeviceLimits& limits,
                       const Settings& settings) {
  return ResolveRow(kSoftmaxRowKernel, shape.row_size, limits, settings);
}

Refusal TunedCheck(const RowConfig& c, const SoftmaxShape& shape, const DeviceLimits& limits) {
  return FirstRefusal({BaselineCheck({}, shape, limits), CheckRow(kSoftmaxRowKernel, c, limits)});
}

}  // namespace

const FamilyRules<SoftmaxShape, RowConfig> kSoftmaxRules{
    {"the seed's softmax", &NoAxes, &NoResolve<SoftmaxShape>, &BaselineCheck},
    {"the tuned softmax", &TunedAxes, &TunedResolve, &TunedCheck}};

}  // namespace refract::ops
