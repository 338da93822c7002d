#include "ops/op_support.h"

#include "base/error.h"
#include "ops/op_rules.h"

namespace refract::ops {

Refusal BindingRefusal(uint64_t bytes, std::string_view what, const DeviceLimits& limits) {
  const uint64_t limit = limits.LargestStorageBinding();
  if (bytes <= limit) return std::nullopt;
  return std::string(what) + " needs a storage binding of " + std::to_string(bytes) +
         " bytes; the device binds at most " + std::to_string(limit) +
         " (maxStorageBufferBindingSize)";
}

Refusal WorkgroupRefusal(uint64_t invocations, uint64_t workgroup_bytes, std::string_view what,
                         const DeviceLimits& limits) {
  const std::string name(what);
  if (invocations > limits.max_compute_invocations_per_workgroup) {
    return name + " needs " + std::to_string(invocations) +
           " invocations a workgroup; the device allows " +
           std::to_string(limits.max_compute_invocations_per_workgroup) +
           " (maxComputeInvocationsPerWorkgroup)";
  }
  if (invocations > limits.max_compute_workgroup_size_x) {
    return name + " needs a workgroup " + std::to_string(invocations) +
           " wide; the device allows " + std::to_string(limits.max_compute_workgroup_size_x) +
           " (maxComputeWorkgroupSizeX)";
  }
  if (workgroup_bytes > limits.max_compute_workgroup_storage_size) {
    return name + " needs " + std::to_string(workgroup_bytes) +
           " bytes of workgroup memory; the device allows " +
           std::to_string(limits.max_compute_workgroup_storage_size) +
           " (maxComputeWorkgroupStorageSize)";
  }
  return std::nullopt;
}

Refusal FirstRefusal(std::initializer_list<Refusal> problems) {
  for (const Refusal& problem : problems) {
    if (problem) return problem;
  }
  return std::nullopt;
}

const AxisTable<NoConfig>& NoAxes() {
  static const AxisTable<NoConfig> kNone({});
  return kNone;
}

void ThrowIfRefused(const Refusal& problem, const std::string& label) {
  if (problem) throw UsageError(label + ": " + *problem);
}

}  // namespace refract::ops
