#include "suites/sweeps/sweep_building.h"

namespace refract::suites::sweeps {

/// Gives `row` its sweep identity: id "<sweep>/<problem>/<label>", the category
/// "<sweep>/<problem>", its sweep, problem and role, the sweep's params beside the row's own,
/// and `extra`'s numbers (the problem's size) among its dimensions.
void Name(kernels::KernelBenchmark& row, const Sweep& sweep, const std::string& problem,
          const std::string& role, const ops::Settings& point, results::Params extra) {
  const std::string category = sweep.name + "/" + problem;
  const std::string label = role == kRoleGrid ? ops::SettingsText(point) : role;
  const std::string id = label.empty() ? category : category + "/" + label;
  results::RowIdentity& identity = row.identity();
  identity.sweep = sweep.name;
  identity.problem = problem;
  identity.role = role;
  for (const auto& [name, value] : extra) {
    if (!value.IsText()) identity.dimensions.push_back(name);
  }
  extra["main_axis"] = sweep.main_axis;
  for (const auto& [name, value] : point) extra[name] = static_cast<int64_t>(value);
  // The op's axes and their stamp, for a profile entry.
  extra[kAxesParam] = ops::AxisNames(row.OpAxes());
  extra[kAxesHashParam] = ops::AxesHashOf(row.OpAxes());
  row.Rename(id, category, extra);
}

/// Appends the configurations of one problem: a row per grid point, then the built-in default
/// and (when `seed` is given) the seed's default, each made by `make(settings)`, which the sweep
/// keeps (it must own what it captures: ConfigurationRow calls it after the sweep is built).
void AddProblem(Sweep& sweep, const std::string& problem, const Maker& make,
                const std::vector<ops::Settings>& grid,
                const std::optional<ops::Settings>& seed_settings, results::Params extra) {
  sweep.problems[problem] = {.make = make, .params = extra};
  for (const ops::Settings& point : grid) {
    std::unique_ptr<kernels::KernelBenchmark> row = make(point);
    Name(*row, sweep, problem, kRoleGrid, point, extra);
    sweep.rows.push_back(std::move(row));
  }
  std::unique_ptr<kernels::KernelBenchmark> fallback = make({});
  Name(*fallback, sweep, problem, kRoleDefault, {}, extra);
  sweep.rows.push_back(std::move(fallback));
  if (seed_settings) {
    std::unique_ptr<kernels::KernelBenchmark> seed = make(*seed_settings);
    Name(*seed, sweep, problem, kRoleSeed, *seed_settings, extra);
    sweep.rows.push_back(std::move(seed));
  }
}

bench::BenchmarkInfo Info(std::string description) {
  return {.id = "", .category = "", .unit = "", .needs = "", .description = std::move(description)};
}

}  // namespace refract::suites::sweeps
