// What the sweeps' builders share (sweep_catalog.cpp, own_sweeps.cpp): naming a configuration
// row and adding a problem's configurations to a sweep, and the sweeps of the sweeps' own ops.
// Internal to suites/sweeps.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ops/axis.h"
#include "suites/sweeps/sweep_catalog.h"

namespace refract::suites::sweeps {

/// Makes one configuration of a problem: its row at `settings`.
using Maker =
    std::function<std::unique_ptr<kernels::KernelBenchmark>(const ops::Settings& settings)>;
/// An axis's values by name, over a grid's (GridOf).
using Overrides = std::map<std::string, std::vector<uint32_t>>;

/// Gives `row` its sweep identity: id "<sweep>/<problem>/<label>", the category
/// "<sweep>/<problem>", its sweep, problem and role, the sweep's params beside the row's own,
/// and `extra`'s numbers (the problem's size) among its dimensions.
void Name(kernels::KernelBenchmark& row, const Sweep& sweep, const std::string& problem,
          const std::string& role, const ops::Settings& point, results::Params extra = {});

/// Appends the configurations of one problem: a row per grid point, then the built-in default
/// and (when `seed` is given) the seed's default, each made by `make(settings)`, which the sweep
/// keeps (it must own what it captures: ConfigurationRow calls it after the sweep is built).
void AddProblem(Sweep& sweep, const std::string& problem, const Maker& make,
                const std::vector<ops::Settings>& grid,
                const std::optional<ops::Settings>& seed_settings, results::Params extra = {});

/// A row's identity before its sweep names it: only its description.
bench::BenchmarkInfo Info(std::string description);

/// The sweeps of the sweeps' own ops (own_sweeps.cpp).
Sweep Bandwidth(const SweepSelection& selection);
/// reduction (subgroups = 0) or subgroups (subgroups = 1): the sum of 4M f32.
Sweep Reduction(const SweepSelection& selection, bool subgroups);
Sweep Scan(const SweepSelection& selection);
/// f16 data in the matmul tiles, accumulating in f32 or in f16, at the matmul-f32 sweep's
/// small-M problem (its 4096³ takes the f32 sweep's time again for little more to learn).
Sweep F16(const SweepSelection& selection);

}  // namespace refract::suites::sweeps
