// `refract kernels --profile FILE`: each tuned row runs with the profile's winner for this
// adapter and its problem, where the store holds a fresh entry of it; every tuned row says
// where its configuration came from.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/device_description.h"
#include "bench/benchmark.h"
#include "refract/profile.h"
#include "suites/kernels/catalog.h"

namespace refract::cli {

/// The param a tuned row gets: "profile: …" (the entry's sweep, problem and date) or
/// "built-in default: …" with why (no profile of this adapter, no entry of the problem, the
/// entry stale and why).
inline constexpr const char* kConfigSourceParam = "config_source";

/// Rebuilds each tuned row of `rows` that `store` has a fresh exact entry for (this adapter's
/// key, the row's kernel, variant and problem — its id after the kernel's name; fresh: the same
/// Dawn, kernel sources and op axes) with the entry's winning settings, as `selection` and
/// `catalog` made it; gives every tuned row kConfigSourceParam.
void ApplyProfile(const profile::Store& store, const DeviceDescription& device,
                  const suites::kernels::KernelSelection& selection,
                  const suites::kernels::CatalogOptions& catalog,
                  std::vector<std::unique_ptr<bench::Benchmark>>& rows);

}  // namespace refract::cli
