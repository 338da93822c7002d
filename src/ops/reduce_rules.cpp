// The sum's axes, default rule and limit checks: pure, no GPU.
#include "ops/reduce_rules.h"

namespace refract::ops {
namespace {

const AxisTable<ReduceConfig>& ReduceAxes() {
  static const AxisTable<ReduceConfig> kAxes({
      {WorkgroupAxis("256", {64, 128, 256, 512, 1024}, {64, 256}), &ReduceConfig::wg},
      {PowerOfTwoAxis("items", "vec4 an invocation sums before the tree", "1", 1, 64,
                      {1, 2, 4, 8, 16, 32}, {1, 8}),
       &ReduceConfig::items},
      {FlagAxis("subgroups", "1: subgroupAdd, then a tree over the subgroups' sums; 0: a tree",
                "0"),
       &ReduceConfig::subgroups},
  });
  return kAxes;
}

Refusal ReduceCheck(const ReduceConfig& c, const ReduceShape& p, const DeviceLimits& limits) {
  if (p.count == 0 || p.count % 4 != 0 || p.count / 4 > UINT32_MAX) {
    return "the sum needs a whole number of vec4, 1 to 2^32 - 1 of them";
  }
  if (c.subgroups == 1 && !limits.subgroups) return std::string("the device has no subgroups");
  return FirstRefusal({BindingRefusal(p.count * 4, "the sum's data", limits),
                       WorkgroupRefusal(c.wg, uint64_t{c.wg} * 4, "the sum", limits)});
}

}  // namespace

uint64_t ReducePartials(const ReduceConfig& config, const ReduceShape& problem) {
  return CeilDiv(problem.count / 4, uint64_t{config.wg} * config.items);
}

const OpRules<ReduceShape, ReduceConfig> kReduceRules{
    "the sum", &ReduceAxes, &ResolveFromDefaults<ReduceShape, ReduceConfig, &ReduceAxes>,
    &ReduceCheck};

}  // namespace refract::ops
