// The plan `refract tune` runs: a user's kernel as one sweep, each problem of its spec with its
// configurations and the spec's default configuration, every row a UserKernelRow.
#pragma once

#include <cstdint>
#include <memory>

#include "suites/sweeps/sweep_catalog.h"
#include "tune/user_kernel.h"

namespace refract::suites::user {

/// The sweep "tune:<spec name>": per problem of the spec, a row per configuration
/// (tune::Configurations, `quick`: the axes' quick values) named
/// "tune:<name>/<problem>/<axis=value:…>", then the spec's default ("…/default"). Inputs seeded
/// by `seed`; rows rotate through copies spanning `cold_footprint_bytes` (0: the device's
/// default).
sweeps::Sweep MakeUserSweep(std::shared_ptr<const tune::UserKernel> user, bool quick,
                            uint64_t seed, uint64_t cold_footprint_bytes);

}  // namespace refract::suites::user
