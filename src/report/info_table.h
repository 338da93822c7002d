// `refract info`: the adapter and device as a readable table.
#pragma once

#include <ostream>

#include "base/device_description.h"

namespace refract::report {

/// Writes the adapter identity (vendor, architecture, device, description, backend, adapter
/// type, vendor/device IDs in hex, subgroup sizes, Dawn package), the toggles, the adapter,
/// device and WGSL language features (lists wrapped at 100 columns), every limit (name, the
/// device's value, the adapter's value; right-aligned) and the subgroup-matrix configs if any.
void RenderInfoTable(std::ostream& out, const DeviceDescription& device);

}  // namespace refract::report
