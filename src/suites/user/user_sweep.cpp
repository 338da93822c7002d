#include "suites/user/user_sweep.h"

#include <cmath>

#include "suites/sweeps/sweep_building.h"
#include "suites/user/user_kernel_row.h"

namespace refract::suites::user {

sweeps::Sweep MakeUserSweep(std::shared_ptr<const tune::UserKernel> user, bool quick,
                            uint64_t seed, uint64_t cold_footprint_bytes) {
  sweeps::Sweep sweep{.name = "tune:" + user->spec.name,
                      .main_axis = user->spec.main_axis,
                      .seed_default = "none: the default row is the spec's default configuration"};
  for (size_t p = 0; p < user->spec.problems.size(); ++p) {
    const tune::ProblemSpec& problem = user->spec.problems[p];
    auto data = std::make_shared<UserProblem>(user, p, seed);
    auto make = [=](const ops::Settings& settings) -> std::unique_ptr<kernels::KernelBenchmark> {
      return std::make_unique<UserKernelRow>(
          user, data, settings,
          kernels::KernelOptions{.cold_footprint_bytes = cold_footprint_bytes, .seed = seed});
    };
    results::Params sizes;
    for (const auto& [name, value] : problem.sizes) {
      sizes[name] = value == std::floor(value) && std::fabs(value) < 9e15
                        ? results::ParamValue(static_cast<int64_t>(value))
                        : results::ParamValue(value);
    }
    sweeps::AddProblem(sweep, problem.name, make, tune::Configurations(user->spec, problem, quick),
                       std::nullopt, sizes);
  }
  return sweep;
}

}  // namespace refract::suites::user
