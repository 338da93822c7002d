#include "ops/row_layout.h"

#include <algorithm>

namespace refract::ops {
namespace {

// Workgroup memory of the reduction part [bytes]: the subgroup path's two rounds of a vec4 a
// subgroup (subgroups at least 4 wide) and its slot counter; the tree's vec4 an invocation.
uint64_t ReductionBytes(const RowConfig& c) {
  return c.subgroups == 1 ? 2 * 16 * uint64_t{(c.wg + 3) / 4} + 4 : 16 * uint64_t{c.wg};
}

}  // namespace

uint32_t RowWidth(uint32_t row_size) { return row_size % 4 == 0 ? 4 : 1; }

AxisTable<RowConfig> RowAxes(const RowKernel& kernel) {
  return AxisTable<RowConfig>({
      {{.name = "wg",
        .meaning = "invocations a row",
        .default_rule = "the row's elements / kept_target rounded up to 32, at most 256",
        .min = 1,
        .max = 1024,
        .grid = {32, 64, 128, 256, 512, 1024},
        .quick = {32, 256, 1024}},
       &RowConfig::wg},
      {CountAxis("vpt", "elements (vec4 or f32) an invocation keeps in registers",
                 "enough to keep the row", kernel.max_kept, {1, 2, 4, 8, 16}, {1, 8}),
       &RowConfig::vpt},
      {FlagAxis("subgroups",
                "1: reductions through subgroup operations; 0: through workgroup memory",
                "1 where the device has subgroups"),
       &RowConfig::subgroups},
  });
}

RowConfig ResolveRow(const RowKernel& kernel, uint32_t row_size, const DeviceLimits& limits,
                     const Settings& settings) {
  RowConfig c;
  const uint32_t elements = std::max(row_size / RowWidth(row_size), 1u);
  const uint32_t max_invocations = std::min(256u, limits.max_compute_invocations_per_workgroup);
  const uint32_t per_invocation = (elements + kernel.kept_target - 1) / kernel.kept_target;
  c.wg = SettingOr(settings, "wg", std::min((per_invocation + 31) / 32 * 32, max_invocations));
  c.vpt = SettingOr(settings, "vpt", std::min((elements + c.wg - 1) / c.wg, kernel.max_kept));
  c.subgroups = SettingOr(settings, "subgroups", limits.subgroups ? 1u : 0u);
  return c;
}

Refusal CheckRow(const RowKernel&, const RowConfig& c, const DeviceLimits& limits) {
  if (c.subgroups == 1 && !limits.subgroups) return std::string("the device has no subgroups");
  return WorkgroupRefusal(c.wg, ReductionBytes(c), "a row reduction of wg " + std::to_string(c.wg),
                          limits);
}

std::map<std::string, double> RowConstants(const RowConfig& c) {
  return {{"WG", c.wg}, {"VPT", c.vpt}};
}

std::string_view RowReductionPart(const RowConfig& c) {
  return c.subgroups == 1 ? "llm_reduce_subgroup_part" : "llm_reduce_workgroup_part";
}

std::string_view RowElementPart(uint32_t row_size) {
  return RowWidth(row_size) == 4 ? "llm_row_vec4_part" : "llm_row_scalar_part";
}

}  // namespace refract::ops
