#include "suites/kernels/kernel_support.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "base/error.h"
#include "gpu/transfer.h"
#include "reference/random_data.h"

namespace refract::suites::kernels {

bool UseSubgroups(const gpu::Context& context, const KernelOptions& options) {
  return !options.portable && context.HasFeature(gpu::Feature::kSubgroups);
}

void RequireWorkgroupMemory(const gpu::Context& context, uint64_t bytes, const std::string& what) {
  const uint32_t limit = context.limits().max_compute_workgroup_storage_size;
  REFRACT_THROW_IF(bytes > limit, UsageError,
                   what + " needs " + std::to_string(bytes) +
                       " bytes of workgroup memory, above the device's "
                       "maxComputeWorkgroupStorageSize of " +
                       std::to_string(limit));
}

void RequireKnownOverrides(const std::map<std::string, double>& overrides,
                           std::initializer_list<std::string_view> known, const std::string& what) {
  for (const auto& [name, value] : overrides) {
    bool found = false;
    for (std::string_view k : known) found = found || name == k;
    REFRACT_THROW_IF(!found, UsageError, what + " has no override named " + name);
  }
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

std::map<std::string, double> RowLayout::Constants() const { return {{"WG", wg}, {"VPT", vpt}}; }

std::string_view RowLayout::ReductionPart() const {
  return subgroups ? "llm_reduce_subgroup_part" : "llm_reduce_workgroup_part";
}

std::string_view RowLayout::ElementPart() const {
  return width == 4 ? "llm_row_vec4_part" : "llm_row_scalar_part";
}

uint64_t RowLayout::ReductionBytes() const {
  return subgroups ? 2 * 16 * uint64_t{(wg + 3) / 4} + 4 : 16 * uint64_t{wg};
}

std::string RowLayout::PathName() const { return subgroups ? "subgroup" : "portable"; }

RowLayout ResolveRowLayout(const gpu::Context& context, uint32_t row_size,
                           const KernelOptions& options, uint32_t max_kept, uint32_t kept_target) {
  RequireKnownOverrides(options.overrides, {"WG", "VPT"}, "a tuned row kernel");
  RowLayout layout;
  layout.width = row_size % 4 == 0 ? 4 : 1;
  layout.subgroups = UseSubgroups(context, options);
  const uint32_t elements = std::max(row_size / layout.width, 1u);
  const uint32_t max_threads =
      std::min(256u, context.limits().max_compute_invocations_per_workgroup);
  const uint32_t per_invocation = (elements + kept_target - 1) / kept_target;
  layout.wg = std::min((per_invocation + 31) / 32 * 32, max_threads);
  layout.vpt = std::min((elements + layout.wg - 1) / layout.wg, max_kept);
  layout.wg = OverrideOr(options.overrides, "WG", layout.wg);
  layout.vpt = OverrideOr(options.overrides, "VPT", layout.vpt);
  REFRACT_THROW_IF(layout.vpt > max_kept, UsageError,
                   "VPT " + std::to_string(layout.vpt) + " above the kernel's " +
                       std::to_string(max_kept) + " kept elements");
  REFRACT_THROW_IF(
      layout.wg > context.limits().max_compute_invocations_per_workgroup, UsageError,
      "WG " + std::to_string(layout.wg) + " above the device's maxComputeInvocationsPerWorkgroup");
  RequireWorkgroupMemory(context, layout.ReductionBytes(),
                         "a row reduction of WG " + std::to_string(layout.wg));
  return layout;
}

const std::vector<TokenCase>& TokenCases() {
  static const std::vector<TokenCase> kCases = [] {
    std::vector<TokenCase> cases;
    for (const ModelConfig* model : {&Qwen25(), &EmbeddingGemma2()}) {
      for (uint32_t t : {1u, 50u, 128u, 2048u}) {
        for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
          cases.push_back({model, t, variant});
        }
      }
    }
    return cases;
  }();
  return kCases;
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

VerificationRecord CompareRows(reference::Comparison& comparison, std::span<const float> gpu,
                               std::span<const float> cpu, std::span<const uint32_t> rows,
                               size_t width) {
  for (size_t p = 0; p < rows.size(); ++p) {
    for (size_t i = 0; i < width; ++i) {
      const size_t index = size_t{rows[p]} * width + i;
      comparison.Check(index, gpu[index], cpu[p * width + i]);
    }
  }
  return comparison.Finish();
}

}  // namespace refract::suites::kernels
