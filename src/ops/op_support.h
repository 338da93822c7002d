// What every op's limit check shares: the binding, invocation and workgroup-memory checks that
// name the limit they exceed, and the first problem of several.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "base/device_limits.h"

namespace refract::ops {

/// Why a problem with this reason cannot run: nothing when the check passed.
using Refusal = std::optional<std::string>;

/// "`what` needs a storage binding of N bytes; the device binds at most M
/// (maxStorageBufferBindingSize)" when `bytes` exceed the device's largest storage binding.
Refusal BindingRefusal(uint64_t bytes, std::string_view what, const DeviceLimits& limits);

/// A workgroup of `invocations` (in x) using `workgroup_bytes` of workgroup memory, against the
/// invocation, workgroup-size-x and workgroup-storage limits.
Refusal WorkgroupRefusal(uint64_t invocations, uint64_t workgroup_bytes, std::string_view what,
                         const DeviceLimits& limits);

/// The first problem that is set, else nothing.
Refusal FirstRefusal(std::initializer_list<Refusal> problems);

/// Throws UsageError naming `label` and the problem, if any (an op built with a configuration
/// its own Check refuses).
void ThrowIfRefused(const Refusal& problem, const std::string& label);

/// Seed 003's element-wise uniform {count} (its add, mul and activations; the tuned
/// activations' too), padded to 16 bytes.
struct CountParams {
  uint32_t count, padding[3];
};

/// The invocations of every subgroup where the device has subgroups of one size only (its
/// smallest and largest subgroup sizes equal), else 0: what a kernel that maps a subgroup's
/// lanes to its work at compile time needs.
inline uint32_t FixedSubgroupSize(const DeviceLimits& limits) {
  return limits.subgroups && limits.subgroup_min_size > 0 &&
                 limits.subgroup_min_size == limits.subgroup_max_size
             ? limits.subgroup_min_size
             : 0;
}

/// Values `n` of `width` take: ceil(n / width) [units].
inline uint64_t CeilDiv(uint64_t n, uint64_t width) { return (n + width - 1) / width; }

}  // namespace refract::ops
