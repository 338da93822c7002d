// Internal to src/gpu/: the adapter and device description a Context gives `refract info` and
// the suites (names, IDs, subgroup sizes, features, limits), and the features it asks for.
#pragma once

#include <vector>

#include "base/device_description.h"
#include "gpu/context.h"
#include "gpu/context_state.h"
#include "gpu/webgpu_api.h"

namespace refract::gpu {

/// Fills the adapter's part of `description` (names, IDs, backend, subgroup sizes, features,
/// subgroup matrix configurations, limits) and returns its limits. Throws EnvironmentError for
/// Dawn's Null backend or any backend but Vulkan.
WGPULimits DescribeAdapter(WGPUAdapter adapter, DeviceDescription& description);

/// The optional features refract wants that `adapter` has, to require on the device.
std::vector<WGPUFeatureName> WantedFeaturesOf(WGPUAdapter adapter);

/// Fills the device's part of the state once the device exists: its limits (in the description
/// and as DeviceLimits), the wanted features it has, the instance's WGSL language features.
void DescribeDevice(Context::State& state);

}  // namespace refract::gpu
