// The 2-bit scan's axes, default rule and limit checks: pure, no GPU.
#include "ops/scan_rules.h"

namespace refract::ops {
namespace {

const AxisTable<ScanConfig>& ScanAxes() {
  static const AxisTable<ScanConfig> kAxes({
      {WorkgroupAxis("256", {64, 128, 256, 512}, {64, 256}), &ScanConfig::wg},
      {FlagAxis("lut_shared", "1: the table copied into workgroup memory; 0: read from storage",
                "1 where the table fits the device's workgroup memory"),
       &ScanConfig::lut_shared},
      {CountAxis("vpt", "vectors an invocation", "1", 16, {1, 2, 4, 8}, {1, 2}), &ScanConfig::vpt},
  });
  return kAxes;
}

ScanConfig ScanResolve(const ScanShape& p, const DeviceLimits& limits, const Settings& settings) {
  ScanConfig config;
  config.lut_shared = ScanTableBytes(p.d) <= limits.max_compute_workgroup_storage_size ? 1u : 0u;
  return ScanAxes().With(config, settings);
}

Refusal ScanCheck(const ScanConfig& c, const ScanShape& p, const DeviceLimits& limits) {
  if (p.vectors == 0 || p.d == 0 || p.d % 16 != 0) {
    return "the 2-bit scan needs vectors > 0 and d a positive multiple of 16";
  }
  const uint64_t table = c.lut_shared == 1 ? ScanTableBytes(p.d) : 0;
  return FirstRefusal({WorkgroupRefusal(c.wg, table, "the 2-bit scan", limits),
                       BindingRefusal(uint64_t{p.vectors} * p.d / 4, "the scan's codes", limits),
                       BindingRefusal(uint64_t{p.vectors} * 8 * 4, "the scan's scores", limits)});
}

}  // namespace

const OpRules<ScanShape, ScanConfig> kScanRules{"the 2-bit scan", &ScanAxes, &ScanResolve,
                                                  &ScanCheck};

}  // namespace refract::ops
