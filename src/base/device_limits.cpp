#include "base/device_limits.h"

#include <algorithm>
#include <string>

namespace refract {
namespace {

uint64_t Named(const DeviceDescription& device, std::string_view name) {
  auto found = device.device_limits.find(std::string(name));
  if (found != device.device_limits.end()) return found->second;
  for (const WebGpuLimit& limit : WebGpuDefaultLimitTable()) {
    if (limit.name == name) return limit.default_value;
  }
  return 0;
}

bool Enabled(const DeviceDescription& device, std::string_view feature) {
  return std::find(device.device_features.begin(), device.device_features.end(), feature) !=
         device.device_features.end();
}

}  // namespace

uint64_t DeviceLimits::LargestStorageBinding() const {
  return std::min(max_storage_buffer_binding_size, max_buffer_size);
}

uint32_t DeviceLimits::LargestWorkgroup(uint32_t most) const {
  const uint32_t allowed =
      std::min({most, max_compute_invocations_per_workgroup, max_compute_workgroup_size_x});
  uint32_t size = 1;
  while (size * 2 <= allowed) size *= 2;
  return size;
}

const std::vector<WebGpuLimit>& WebGpuDefaultLimitTable() {
  static const std::vector<WebGpuLimit> kTable = {
      {"maxBufferSize", 268435456},
      {"maxStorageBufferBindingSize", 134217728},
      {"maxUniformBufferBindingSize", 65536},
      {"maxComputeWorkgroupStorageSize", 16384},
      {"maxComputeInvocationsPerWorkgroup", 256},
      {"maxComputeWorkgroupSizeX", 256},
      {"maxComputeWorkgroupSizeY", 256},
      {"maxComputeWorkgroupSizeZ", 64},
      {"maxComputeWorkgroupsPerDimension", 65535},
      {"maxStorageBuffersPerShaderStage", 8},
      {"minStorageBufferOffsetAlignment", 256},
  };
  return kTable;
}

DeviceLimits WebGpuDefaultLimits() { return LimitsOf(DeviceDescription{}); }

DeviceLimits LimitsOf(const DeviceDescription& device) {
  auto u32 = [&](std::string_view name) { return static_cast<uint32_t>(Named(device, name)); };
  DeviceLimits l;
  l.max_buffer_size = Named(device, "maxBufferSize");
  l.max_storage_buffer_binding_size = Named(device, "maxStorageBufferBindingSize");
  l.max_uniform_buffer_binding_size = Named(device, "maxUniformBufferBindingSize");
  l.max_compute_workgroup_storage_size = u32("maxComputeWorkgroupStorageSize");
  l.max_compute_invocations_per_workgroup = u32("maxComputeInvocationsPerWorkgroup");
  l.max_compute_workgroup_size_x = u32("maxComputeWorkgroupSizeX");
  l.max_compute_workgroup_size_y = u32("maxComputeWorkgroupSizeY");
  l.max_compute_workgroup_size_z = u32("maxComputeWorkgroupSizeZ");
  l.max_compute_workgroups_per_dimension = u32("maxComputeWorkgroupsPerDimension");
  l.max_storage_buffers_per_shader_stage = u32("maxStorageBuffersPerShaderStage");
  l.min_storage_buffer_offset_alignment = u32("minStorageBufferOffsetAlignment");
  l.subgroups = Enabled(device, "subgroups");
  l.shader_f16 = Enabled(device, "shader-f16");
  l.packed_4x8_dot =
      std::find(device.wgsl_language_features.begin(), device.wgsl_language_features.end(),
                "packed_4x8_integer_dot_product") != device.wgsl_language_features.end();
  l.subgroup_min_size = device.subgroup_min_size;
  l.subgroup_max_size = device.subgroup_max_size;
  l.cpu = device.adapter_type == "cpu";
  return l;
}

}  // namespace refract
