// A plain record of the adapter and device a run used, as `refract info` reports it.
// Filled by gpu/, read by results/ and report/ (which never see WebGPU).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace refract {

/// One subgroup-matrix configuration (chromium experimental feature).
struct SubgroupMatrixConfig {
  std::string component_type;  ///< e.g. "f16", "f32", "u8"
  std::string result_type;
  uint32_t m = 0, n = 0, k = 0;
};

/// What the adapter is and what the device was created with.
struct DeviceDescription {
  std::string vendor;
  std::string architecture;
  std::string device;
  std::string description;
  std::string backend;       ///< "vulkan"
  std::string adapter_type;  ///< "discrete-gpu", "integrated-gpu", "cpu", "unknown"
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  uint32_t subgroup_min_size = 0;
  uint32_t subgroup_max_size = 0;
  std::vector<std::string> adapter_features;  ///< every feature the adapter has, by name
  std::vector<std::string> device_features;   ///< the features enabled on the device
  std::vector<std::string> wgsl_language_features;
  std::map<std::string, uint64_t> adapter_limits;  ///< every limit, by WebGPU name
  std::map<std::string, uint64_t> device_limits;   ///< the limits the device was created with
  std::vector<SubgroupMatrixConfig> subgroup_matrix_configs;
  std::vector<std::string> enabled_toggles;
  std::vector<std::string> disabled_toggles;
  std::string dawn_package;  ///< npm package and version of the Dawn build, e.g.
                             ///< "bun-webgpu-linux-x64@0.1.7"
};

}  // namespace refract
