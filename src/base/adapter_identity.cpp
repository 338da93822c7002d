#include "base/adapter_identity.h"

#include <cstdio>

#include "refract/profile.h"

namespace refract {
namespace {

std::string Hex4(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof(text), "0x%04x", value);
  return text;
}

}  // namespace

std::string AdapterIdentity::Key() const {
  return profile::AdapterKeyOf({.vendor = vendor,
                                .architecture = architecture,
                                .device = device,
                                .vendor_id = vendor_id,
                                .device_id = device_id,
                                .driver = driver,
                                .backend = backend,
                                .subgroup_min_size = subgroup_min_size,
                                .subgroup_max_size = subgroup_max_size});
}

AdapterIdentity IdentityOf(const DeviceDescription& d) {
  return {.vendor = d.vendor,
          .architecture = d.architecture,
          .device = d.device,
          .vendor_id = d.vendor_id,
          .device_id = d.device_id,
          .driver = d.description,
          .backend = d.backend,
          .subgroup_min_size = d.subgroup_min_size,
          .subgroup_max_size = d.subgroup_max_size};
}

std::string IdentityDifference(const AdapterIdentity& ours, const AdapterIdentity& theirs) {
  std::string text;
  auto differ = [&](const char* field, const std::string& a, const std::string& b) {
    if (a == b) return;
    text += (text.empty() ? "" : ", ") + std::string(field) + " '" + a + "' vs '" + b + "'";
  };
  differ("vendor", ours.vendor, theirs.vendor);
  differ("architecture", ours.architecture, theirs.architecture);
  differ("device", ours.device, theirs.device);
  differ("ids", Hex4(ours.vendor_id) + ":" + Hex4(ours.device_id),
         Hex4(theirs.vendor_id) + ":" + Hex4(theirs.device_id));
  differ("driver", ours.driver, theirs.driver);
  differ("backend", ours.backend, theirs.backend);
  differ("subgroup sizes",
         std::to_string(ours.subgroup_min_size) + "-" + std::to_string(ours.subgroup_max_size),
         std::to_string(theirs.subgroup_min_size) + "-" + std::to_string(theirs.subgroup_max_size));
  return text;
}

}  // namespace refract
