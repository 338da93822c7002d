// refract sweep: the refractometer (SWEEPS.md). Each sweep's configurations are verified, then
// timed, one at a time, in a worker process; the journal keeps every finished one, so that a
// crash, a hang, a lost device or a kill costs at most the configuration that was running. The
// supervisor (this process) starts a worker, records the configuration a dead worker was running
// as failed, starts a fresh one for the rest, and at the end reads the journal into one results
// document: every configuration a row, winners and cliffs flagged (cli/sweep_run.h).

#include <random>

#include "base/error.h"
#include "cli/app.h"
#include "cli/commands.h"
#include "cli/number_checks.h"
#include "cli/sweep_run.h"
#include "kernels/embedded_kernels.h"
#include "suites/sweeps/sweep_catalog.h"

namespace refract::cli {
namespace {

namespace sweeps = suites::sweeps;

struct SweepOptions : SweepRunOptions {
  std::vector<std::string> sweeps;
  std::vector<std::string> kernels;
  std::optional<uint64_t> cold_mib;
};

/// What a resume must match: the same configurations on the same inputs.
nlohmann::json Identity(const SweepOptions& options, uint64_t seed) {
  return {{"sweeps", Joined(options.sweeps)},
          {"filter", Joined(options.filters)},
          {"samples", options.samples.value_or(kSweepSamples)},
          {"pass_ms", options.pass_ms},
          {"warmup_ms", options.warmup_ms},
          {"kernels", Joined(options.kernels)},
          {"quick", options.quick},
          {"seed", seed},
          {"timestamps", !options.no_timestamps},
          {"cold_mib", options.cold_mib ? static_cast<int64_t>(*options.cold_mib) : 0},
          {"kernel_dir", wgsl::KernelDir()}};
}

int RunSweepCommand(SweepOptions options, std::ostream& out) {
  if (options.sweeps.size() == 1 && options.sweeps.front() == "all") {
    options.sweeps = sweeps::SweepNames();
  }
  std::string kernel_dir;
  try {
    kernel_dir = wgsl::KernelDir();
  } catch (const Error& error) {
    throw EnvironmentError(error.what());
  }
  std::optional<uint64_t> seed = options.seed;
  if (!seed && options.resume) seed = JournalSeed(options.journal_path);
  if (!seed) seed = std::random_device{}();
  std::vector<sweeps::Sweep> plan =
      sweeps::MakeSweeps({.sweeps = options.sweeps,
                          .kernels = options.kernels,
                          .quick = options.quick,
                          .seed = *seed,
                          .cold_footprint_bytes = options.cold_mib ? *options.cold_mib << 20 : 0});
  if (!options.filters.empty()) sweeps::KeepMatching(plan, options.filters);
  if (ListOnly(plan, options, out)) return kExitOk;
  std::map<std::string, std::string> described = {{"sweep", Joined(options.sweeps)},
                                                  {"kernel", Joined(options.kernels)}};
  if (!kernel_dir.empty()) described["kernel_dir"] = kernel_dir;
  return RunPlan(plan, options, "sweep", Identity(options, *seed), std::move(described), *seed, {},
                 out);
}

}  // namespace

Registered RegisterSweep(CLI::App& app) {
  auto options = std::make_shared<SweepOptions>();
  CLI::App* command = app.add_subcommand(
      "sweep", "Configuration sweeps: the fastest verified configuration, winners and cliffs");
  command
      ->add_option("--sweep", options->sweeps,
                   "Sweeps to run: NAME[,NAME...] or all (bandwidth, reduction, q4-gemv, q2-scan, "
                   "matmul-f32, subgroups, f16)")
      ->delimiter(',');
  command
      ->add_option("--kernel", options->kernels,
                   "Kernels of `refract kernels` to sweep over their ops' axes: NAME[,NAME...]")
      ->delimiter(',');
  CheckWholeWithin(
      command->add_option("--cold-mib", options->cold_mib,
                          "Span of the rotated input copies [MiB] (default 512 on GPUs, 128 on "
                          "CPUs)"),
      1, uint64_t{1} << 20);
  AddSweepRunOptions(*command, *options);
  Action action = [options](std::ostream& out, std::ostream&) {
    return RunSweepCommand(*options, out);
  };
  return {command, action};
}

}  // namespace refract::cli
