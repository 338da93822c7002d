// What the LLM kernel rows (attention, softmax, norms, RoPE, activations) share: their options,
// composing and compiling a kernel from parts, the workgroup-memory check, buffers, and the
// deterministic sample a large output is verified on.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/context.h"

namespace refract::suites::kernels {

/// Options of one row.
struct KernelOptions {
  /// Bytes the cold copies of the inputs must span together; 0: DefaultColdFootprintBytes.
  /// A footprint of 1 byte makes one copy (tests).
  uint64_t cold_footprint_bytes = 0;
  uint64_t seed = 1;  ///< seeds the deterministic inputs
  /// Tuned rows: reduce through workgroup memory even where the device has subgroups (a real
  /// configuration: the path a device without subgroups runs).
  bool portable = false;
  /// Tuned rows: WGSL override values (and host knobs each family names) replacing the
  /// defaults; a value that does not fit the device throws UsageError at Prepare.
  std::map<std::string, double> overrides;
};

/// The footprint the options ask for, or the device's default.
uint64_t ColdFootprint(const gpu::Context& context, const KernelOptions& options);

/// Whether a tuned row reduces with subgroup operations: the device has them and the options do
/// not ask for the portable path.
bool UseSubgroups(const gpu::Context& context, const KernelOptions& options);

/// The WGSL of src/kernels/<part>.wgsl for each part, joined in order (a directive such as
/// `enable subgroups;` must come from the first part).
std::string ComposeKernel(std::initializer_list<std::string_view> parts);

/// Compiles `entry` of `source` with `constants`; `label` names the row in errors.
gpu::ComputePipeline CompileKernel(gpu::Context& context, const std::string& source,
                                   const std::string& entry,
                                   const std::map<std::string, double>& constants,
                                   const std::string& label);

/// Throws UsageError naming the limit when `bytes` of workgroup memory exceed the device's.
void RequireWorkgroupMemory(const gpu::Context& context, uint64_t bytes, const std::string& what);

/// `name`'s value in `overrides`, or `fallback`; a value that is not a whole number in
/// [1, 65536] throws UsageError.
uint32_t OverrideOr(const std::map<std::string, double>& overrides, const std::string& name,
                    uint32_t fallback);

/// A storage buffer (copy source too) holding `values`.
gpu::Buffer StorageWith(gpu::Context& context, std::span<const float> values,
                        std::string_view label);
/// A zeroed storage buffer (copy source too) of `floats` f32 values (at least 16 bytes).
gpu::Buffer StorageOf(gpu::Context& context, uint64_t floats, std::string_view label);

/// `samples` distinct indices in [0, count), sorted, always holding 0 and count − 1 (all of
/// them when count ≤ samples): the rows a large output is verified on.
std::vector<uint32_t> SampleIndices(uint32_t count, uint32_t samples, uint64_t seed);

}  // namespace refract::suites::kernels
