#include "gpu/context_description.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

#include "base/device_limits.h"
#include "base/error.h"
#include "gpu/webgpu_names.h"

namespace refract::gpu {
namespace {

struct FeatureEntry {
  Feature feature;
  WGPUFeatureName name;
};
// The optional features refract enables whenever the adapter has them.
constexpr FeatureEntry kWantedFeatures[] = {
    {Feature::kTimestampQuery, WGPUFeatureName_TimestampQuery},
    {Feature::kShaderF16, WGPUFeatureName_ShaderF16},
    {Feature::kSubgroups, WGPUFeatureName_Subgroups},
    {Feature::kTimestampQueryInsidePasses,
     WGPUFeatureName_ChromiumExperimentalTimestampQueryInsidePasses},
    {Feature::kSubgroupMatrix, WGPUFeatureName_ChromiumExperimentalSubgroupMatrix},
    {Feature::kFloat32Filterable, WGPUFeatureName_Float32Filterable},
};

WGPUFeatureName ToWgpu(Feature feature) {
  for (const FeatureEntry& entry : kWantedFeatures) {
    if (entry.feature == feature) return entry.name;
  }
  throw Error("unknown feature");
}

void CheckBackend(const WGPUAdapterInfo& info) {
  if (info.backendType == WGPUBackendType_Null) {
    throw EnvironmentError(
        "Dawn offered only its Null backend, which executes nothing; refract needs a Vulkan "
        "adapter (install a Vulkan driver: Mesa lavapipe or the GPU vendor's)");
  }
  if (info.backendType != WGPUBackendType_Vulkan) {
    const char* name = BackendTypeString(info.backendType);
    throw EnvironmentError(std::string("Dawn offered a ") + (name ? name : "unknown") +
                           " adapter; refract measures on Vulkan only");
  }
}

std::vector<std::string> FeatureNames(const WGPUSupportedFeatures& supported) {
  std::vector<std::string> names;
  for (size_t i = 0; i < supported.featureCount; ++i) {
    const char* name = FeatureNameString(supported.features[i]);
    names.push_back(name ? name : "unknown-0x" + [&] {
      char hex[16];
      std::snprintf(hex, sizeof(hex), "%x", static_cast<unsigned>(supported.features[i]));
      return std::string(hex);
    }());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::map<std::string, uint64_t> LimitsMap(const WGPULimits& limits) {
  std::map<std::string, uint64_t> map;
  for (const auto& [name, value] : LimitsAsList(limits)) map[name] = value;
  return map;
}

void DescribeSubgroupMatrixConfigs(WGPUAdapter adapter, DeviceDescription& d) {
  if (!wgpuAdapterHasFeature(adapter, WGPUFeatureName_ChromiumExperimentalSubgroupMatrix)) return;
  WGPUAdapterPropertiesSubgroupMatrixConfigs configs{};
  configs.chain.sType = WGPUSType_AdapterPropertiesSubgroupMatrixConfigs;
  WGPUAdapterInfo info_with_configs{};
  info_with_configs.nextInChain = &configs.chain;
  if (wgpuAdapterGetInfo(adapter, &info_with_configs) != WGPUStatus_Success) return;
  for (size_t i = 0; i < configs.configCount; ++i) {
    const WGPUSubgroupMatrixConfig& c = configs.configs[i];
    const char* component = SubgroupMatrixComponentTypeString(c.componentType);
    const char* result = SubgroupMatrixComponentTypeString(c.resultComponentType);
    d.subgroup_matrix_configs.push_back(
        {component ? component : "unknown", result ? result : "unknown", c.M, c.N, c.K});
  }
  wgpuAdapterPropertiesSubgroupMatrixConfigsFreeMembers(configs);
  wgpuAdapterInfoFreeMembers(info_with_configs);
}

}  // namespace

std::string_view FeatureName(Feature feature) {
  const char* name = FeatureNameString(ToWgpu(feature));
  return name ? name : "unknown";
}

WGPULimits DescribeAdapter(WGPUAdapter adapter, DeviceDescription& d) {
  WGPUAdapterInfo info{};
  wgpuAdapterGetInfo(adapter, &info);
  try {
    CheckBackend(info);
  } catch (...) {
    wgpuAdapterInfoFreeMembers(info);
    throw;
  }
  d.vendor = ToString(info.vendor);
  d.architecture = ToString(info.architecture);
  d.device = ToString(info.device);
  d.description = ToString(info.description);
  d.backend = BackendTypeString(info.backendType);
  d.adapter_type =
      AdapterTypeString(info.adapterType) ? AdapterTypeString(info.adapterType) : "unknown";
  d.vendor_id = info.vendorID;
  d.device_id = info.deviceID;
  d.subgroup_min_size = info.subgroupMinSize;
  d.subgroup_max_size = info.subgroupMaxSize;
  d.dawn_package = REFRACT_DAWN_PACKAGE;
  wgpuAdapterInfoFreeMembers(info);

  WGPUSupportedFeatures adapter_features{};
  wgpuAdapterGetFeatures(adapter, &adapter_features);
  d.adapter_features = FeatureNames(adapter_features);
  wgpuSupportedFeaturesFreeMembers(adapter_features);

  DescribeSubgroupMatrixConfigs(adapter, d);

  WGPULimits adapter_limits{};
  wgpuAdapterGetLimits(adapter, &adapter_limits);
  d.adapter_limits = LimitsMap(adapter_limits);
  return adapter_limits;
}

std::vector<WGPUFeatureName> WantedFeaturesOf(WGPUAdapter adapter) {
  std::vector<WGPUFeatureName> wanted;
  for (const FeatureEntry& entry : kWantedFeatures) {
    if (wgpuAdapterHasFeature(adapter, entry.name)) wanted.push_back(entry.name);
  }
  return wanted;
}

void DescribeDevice(Context::State& s) {
  DeviceDescription& d = s.description;
  WGPULimits device_limits{};
  wgpuDeviceGetLimits(s.device.get(), &device_limits);
  d.device_limits = LimitsMap(device_limits);
  for (const FeatureEntry& entry : kWantedFeatures) {
    if (wgpuDeviceHasFeature(s.device.get(), entry.name)) {
      s.features.push_back(entry.feature);
      d.device_features.push_back(FeatureNameString(entry.name));
    }
  }
  std::sort(d.device_features.begin(), d.device_features.end());

  WGPUSupportedWGSLLanguageFeatures language_features{};
  wgpuInstanceGetWGSLLanguageFeatures(s.instance.get(), &language_features);
  for (size_t i = 0; i < language_features.featureCount; ++i) {
    if (const char* name = WgslLanguageFeatureString(language_features.features[i])) {
      s.wgsl_language_features.push_back(name);
    }
  }
  wgpuSupportedWGSLLanguageFeaturesFreeMembers(language_features);
  std::sort(s.wgsl_language_features.begin(), s.wgsl_language_features.end());
  d.wgsl_language_features = s.wgsl_language_features;
  s.limits = LimitsOf(d);  // after the limits, features and language features it reads
}

}  // namespace refract::gpu
