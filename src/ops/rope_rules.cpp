// The RoPE ops' axes, default rule, limit checks and frequency table: pure, no GPU.
#include <algorithm>
#include <cmath>

#include "ops/rope_rules.h"

namespace refract::ops {
namespace {

Refusal BaselineCheck(const NoConfig&, const RopeShape& s, const DeviceLimits& limits) {
  if (s.seq_len == 0 || s.heads == 0 || s.kv_heads == 0 || s.head_dim == 0 || s.head_dim % 2) {
    return "RoPE needs T and heads above 0 and an even head_dim";
  }
  return BindingRefusal(uint64_t{4} * s.seq_len * std::max(s.heads, s.kv_heads) * s.head_dim,
                        "RoPE's q", limits);
}

const AxisTable<RopeConfig>& TunedAxes() {
  static const AxisTable<RopeConfig> kAxes({
      {WorkgroupAxis(), &RopeConfig::wg},
      {CountAxis("hpt", "heads an invocation rotates with one sin/cos pair",
                 "the largest of 4, 3, 2, 1 dividing the heads of q and k together", 16,
                 {1, 2, 4, 8}, {1, 4}),
       &RopeConfig::hpt},
  });
  return kAxes;
}

RopeConfig TunedResolve(const RopeShape& shape, const DeviceLimits&, const Settings& settings) {
  const uint32_t heads = shape.heads + shape.kv_heads;
  uint32_t hpt = 4;
  while (hpt > 1 && heads % hpt != 0) --hpt;
  return TunedAxes().With({.wg = 256, .hpt = hpt}, settings);
}

Refusal TunedCheck(const RopeConfig& c, const RopeShape& shape, const DeviceLimits& limits) {
  if (shape.head_dim % 4 != 0) {
    return "the tuned RoPE rotates vec4 (two pairs): head_dim must be a multiple of 4";
  }
  return FirstRefusal(
      {BaselineCheck({}, shape, limits), WorkgroupRefusal(c.wg, 0, "RoPE", limits)});
}

}  // namespace

std::vector<float> RopeInverseFrequencies(const RopeShape& shape) {
  std::vector<float> inv_freq(shape.head_dim / 2);
  for (size_t i = 0; i < inv_freq.size(); ++i) {
    inv_freq[i] = static_cast<float>(
        std::pow(static_cast<double>(shape.base), -2.0 * static_cast<double>(i) / shape.head_dim));
  }
  return inv_freq;
}

const FamilyRules<RopeShape, RopeConfig> kRopeRules{
    {"the seed's RoPE", &NoAxes, &NoResolve<RopeShape>, &BaselineCheck},
    {"the tuned RoPE", &TunedAxes, &TunedResolve, &TunedCheck}};

}  // namespace refract::ops
