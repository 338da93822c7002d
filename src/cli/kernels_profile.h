// `refract kernels --profile FILE`: each tuned row runs with the profile's winner for this
// adapter and its problem, where the store holds a fresh entry of it that means something for
// the row's op; every tuned row says where its configuration came from.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/benchmark.h"
#include "gpu/context.h"
#include "ops/axis.h"
#include "refract/profile.h"
#include "suites/kernels/catalog.h"
#include "suites/kernels/kernel_benchmark.h"

namespace refract::cli {

/// The param a tuned row gets: "profile: …" (the entry's sweep, problem and date) or
/// "built-in default: …" with why (no profile of this adapter, no entry of the problem, the
/// entry refused or stale and why).
inline constexpr const char* kConfigSourceParam = "config_source";

/// Why `entry` cannot configure an op of `axes`, or nothing: its winner's params must give
/// every axis a value the axis allows, and name no other (ops::SettingsProblem).
std::optional<std::string> EntryRefusal(const profile::Entry& entry,
                                        const std::vector<ops::Axis>& axes);

/// Why `entry` is stale for a row that compiled `compiled` (the kernel files its op at the
/// entry's configuration compiles now, wgsl::TakeKernelsUsed after its Prepare), or nothing:
/// another Dawn, other kernel files than the entry names (an entry given another kernel's
/// files), a kernel source changed since, or the op's axes changed (`axes`).
std::optional<std::string> StaleFor(const profile::Entry& entry,
                                    const std::vector<std::string>& compiled,
                                    const std::vector<ops::Axis>& axes);

/// The kernel files `row` compiles at its configuration (wgsl::TakeKernelsUsed around its
/// Prepare, in name order): it is prepared on `context` and released at once. Throws what
/// Prepare throws (a configuration that does not compile).
std::vector<std::string> KernelsCompiled(gpu::Context& context,
                                         suites::kernels::KernelBenchmark& row);

/// Rebuilds each tuned row of `rows` that `store` has a usable exact entry for (this adapter's
/// key, the row's kernel, variant and problem — its id after the kernel's name) with the
/// entry's winning settings, as `selection` and `catalog` made it; gives every tuned row
/// kConfigSourceParam. Usable: EntryRefusal finds nothing, the row at those settings compiles
/// on `context` (once, on one copy of its problem, released at once) and StaleFor finds nothing.
/// A refused or stale entry leaves the row at its built-in default, saying why.
void ApplyProfile(const profile::Store& store, gpu::Context& context,
                  const suites::kernels::KernelSelection& selection,
                  const suites::kernels::CatalogOptions& catalog,
                  std::vector<std::unique_ptr<bench::Benchmark>>& rows);

}  // namespace refract::cli
