#include "suites/kernels/kernel_support.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "base/error.h"
#include "gpu/transfer.h"
#include "kernels/embedded_kernels.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_benchmark.h"

namespace refract::suites::kernels {

uint64_t ColdFootprint(const gpu::Context& context, const KernelOptions& options) {
  return options.cold_footprint_bytes != 0 ? options.cold_footprint_bytes
                                           : DefaultColdFootprintBytes(context);
}

bool UseSubgroups(const gpu::Context& context, const KernelOptions& options) {
  return !options.portable && context.HasFeature(gpu::Feature::kSubgroups);
}

std::string ComposeKernel(std::initializer_list<std::string_view> parts) {
  std::string source;
  for (std::string_view part : parts) {
    source += refract::kernels::KernelSource(part);
    source += '\n';
  }
  return source;
}

gpu::ComputePipeline CompileKernel(gpu::Context& context, const std::string& source,
                                   const std::string& entry,
                                   const std::map<std::string, double>& constants,
                                   const std::string& label) {
  return context.CreateComputePipeline(
      {.wgsl = source, .label = label, .entry_point = entry, .constants = constants});
}

void RequireWorkgroupMemory(const gpu::Context& context, uint64_t bytes, const std::string& what) {
  const uint32_t limit = context.limits().max_compute_workgroup_storage_size;
  REFRACT_THROW_IF(bytes > limit, UsageError,
                   what + " needs " + std::to_string(bytes) +
                       " bytes of workgroup memory, above the device's "
                       "maxComputeWorkgroupStorageSize of " +
                       std::to_string(limit));
}

uint32_t OverrideOr(const std::map<std::string, double>& overrides, const std::string& name,
                    uint32_t fallback) {
  auto found = overrides.find(name);
  if (found == overrides.end()) return fallback;
  const double value = found->second;
  REFRACT_THROW_IF(!(value >= 1 && value <= 65536 && value == std::floor(value)), UsageError,
                   "override " + name + " must be a whole number in [1, 65536]");
  return static_cast<uint32_t>(value);
}

gpu::Buffer StorageWith(gpu::Context& context, std::span<const float> values,
                        std::string_view label) {
  return gpu::Upload(context, values, gpu::kUsageStorage | gpu::kUsageCopySrc, label);
}

gpu::Buffer StorageOf(gpu::Context& context, uint64_t floats, std::string_view label) {
  return context.CreateBuffer(std::max<uint64_t>(floats * 4, 16),
                              gpu::kUsageStorage | gpu::kUsageCopySrc | gpu::kUsageCopyDst, label);
}

std::vector<uint32_t> SampleIndices(uint32_t count, uint32_t samples, uint64_t seed) {
  std::vector<uint32_t> indices;
  if (count <= samples) {
    for (uint32_t i = 0; i < count; ++i) indices.push_back(i);
    return indices;
  }
  std::set<uint32_t> chosen = {0, count - 1};
  reference::RandomStream stream(seed);
  while (chosen.size() < samples) chosen.insert(stream.NextBelow(count));
  return {chosen.begin(), chosen.end()};
}

}  // namespace refract::suites::kernels
