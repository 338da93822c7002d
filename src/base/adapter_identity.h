// Which adapter a record was measured on: the facts that tell one GPU and driver from another.
// `--ceilings` refuses another adapter's file by it; profiles are keyed by it.
#pragma once

#include <cstdint>
#include <string>

#include "base/device_description.h"

namespace refract {

struct AdapterIdentity {
  std::string vendor;        ///< "nvidia", "mesa"
  std::string architecture;  ///< may be empty (NVIDIA's Vulkan adapter names none)
  std::string device;        ///< "NVIDIA H200"
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  std::string driver;   ///< the adapter's description: driver name and version
  std::string backend;  ///< "vulkan"
  uint32_t subgroup_min_size = 0;
  uint32_t subgroup_max_size = 0;

  bool operator==(const AdapterIdentity&) const = default;

  /// One line naming every field, stable, for keys and messages: "nvidia / NVIDIA H200
  /// (0x10de:0x2335) / NVIDIA: 580.159.04 … / vulkan / subgroups 32-32".
  std::string Key() const;
};

/// The identity of the adapter `device` describes.
AdapterIdentity IdentityOf(const DeviceDescription& device);

/// What differs between two identities, field by field ("driver 'A' vs 'B'"); empty when equal.
std::string IdentityDifference(const AdapterIdentity& ours, const AdapterIdentity& theirs);

}  // namespace refract
