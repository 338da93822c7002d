// Human-readable names for values of the WebGPU C API declared in webgpu_api.h: the spellings
// WebGPU (or, for Dawn's own extensions, Dawn) uses, for reports and `refract info`.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpu/webgpu_api.h"

namespace refract::gpu {

/// WebGPU's name of a feature ("timestamp-query", "shader-f16", "float32-filterable"; Dawn's
/// kebab-case name for its extensions, e.g. "chromium-experimental-subgroup-matrix").
/// nullptr for a value this build does not define.
const char* FeatureNameString(WGPUFeatureName feature);

/// WGSL's name of a language feature ("packed_4x8_integer_dot_product"); nullptr if unknown.
const char* WgslLanguageFeatureString(WGPUWGSLLanguageFeatureName feature);

/// "null", "webgpu", "d3d11", "d3d12", "metal", "vulkan", "opengl", "opengles" or "undefined";
/// nullptr if unknown.
const char* BackendTypeString(WGPUBackendType type);

/// "discrete-gpu", "integrated-gpu", "cpu" or "unknown"; nullptr for a value outside the enum.
const char* AdapterTypeString(WGPUAdapterType type);

/// "f32", "f16", "u32" or "i32"; nullptr if unknown.
const char* SubgroupMatrixComponentTypeString(WGPUSubgroupMatrixComponentType type);

/// Every field of `limits` as (WebGPU camelCase name, value), in declaration order; 32-bit
/// limits are widened. Names are unique. (The compatibility-mode stage limits are not in
/// WGPULimits in this build; see WGPUCompatibilityModeLimits.)
std::vector<std::pair<std::string, uint64_t>> LimitsAsList(const WGPULimits& limits);

}  // namespace refract::gpu
