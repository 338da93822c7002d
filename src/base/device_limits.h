// The limits and adapter facts a kernel configuration depends on, as a plain record: from a
// device's description (what a run measured on) or WebGPU's defaults (what a browser page gets
// without asking for more). Ops check configurations against it without a device.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "base/device_description.h"

namespace refract {

/// Limits of a device that kernels are sized by [bytes where named so], and the few features
/// and adapter facts a configuration may need.
struct DeviceLimits {
  uint64_t max_buffer_size = 0;                     // [bytes]
  uint64_t max_storage_buffer_binding_size = 0;     // [bytes]
  uint64_t max_uniform_buffer_binding_size = 0;     // [bytes]
  uint32_t max_compute_workgroup_storage_size = 0;  // [bytes]
  uint32_t max_compute_invocations_per_workgroup = 0;
  uint32_t max_compute_workgroup_size_x = 0;
  uint32_t max_compute_workgroup_size_y = 0;
  uint32_t max_compute_workgroup_size_z = 0;
  uint32_t max_compute_workgroups_per_dimension = 0;
  uint32_t max_storage_buffers_per_shader_stage = 0;
  uint32_t min_storage_buffer_offset_alignment = 256;  // [bytes]
  bool subgroups = false;                              ///< the `subgroups` feature is enabled
  bool shader_f16 = false;                             ///< the `shader-f16` feature is enabled
  bool packed_4x8_dot = false;     ///< WGSL's packed_4x8_integer_dot_product (dot4I8Packed)
  uint32_t subgroup_min_size = 0;  ///< 0: unknown
  uint32_t subgroup_max_size = 0;
  bool cpu = false;  ///< a CPU adapter (lavapipe): few invocations run at once, each costs more

  /// The largest buffer that can be bound as storage: the binding and buffer limits' smaller
  /// [bytes].
  uint64_t LargestStorageBinding() const;
  /// The largest power of two up to `most` invocations that a workgroup along x may hold here
  /// (1 when the limits are unknown).
  uint32_t LargestWorkgroup(uint32_t most) const;
};

/// One limit of WebGPU's specification by its name, with the default every device gets unless
/// it asks for more.
struct WebGpuLimit {
  std::string_view name;  ///< e.g. "maxComputeWorkgroupStorageSize"
  uint64_t default_value;
};

/// The compute-relevant limits of the WebGPU specification and their defaults (W3C WebGPU,
/// "Limits": maxComputeWorkgroupStorageSize 16384, maxComputeInvocationsPerWorkgroup 256, …).
const std::vector<WebGpuLimit>& WebGpuDefaultLimitTable();

/// WebGPU's default limits, with no optional feature and nothing known of the adapter.
DeviceLimits WebGpuDefaultLimits();

/// The limits the device of `device` was created with (a limit it does not list keeps WebGPU's
/// default), its subgroup sizes, whether `subgroups` and `shader-f16` are enabled and
/// dot4I8Packed available, and whether it is a CPU adapter.
DeviceLimits LimitsOf(const DeviceDescription& device);

}  // namespace refract
