// refract tune: a user's WGSL kernel swept over its spec's override constants (docs/TUNE.md).
// The spec and the shader are checked against each other first (exit 2 naming the field or the
// WGSL line); then every configuration runs as a sweep's does (cli/sweep_run.h): checked against
// the device's limits, compiled, verified against the spec's reference, timed, journaled.

#include <random>

#include "base/error.h"
#include "cli/app.h"
#include "cli/commands.h"
#include "cli/number_checks.h"
#include "cli/sweep_run.h"
#include "refract/profile.h"
#include "suites/user/user_sweep.h"
#include "tune/user_kernel.h"

namespace refract::cli {
namespace {

struct TuneOptions : SweepRunOptions {
  std::string kernel_path;
  std::string spec_path;
  std::optional<uint64_t> cold_mib;
};

/// What a resume must match: the same kernel, spec and configurations on the same inputs.
nlohmann::json Identity(const TuneOptions& options, const tune::UserKernel& user, uint64_t seed) {
  return {{"tune", user.spec.name},
          {"stamp", user.StampHash()},
          {"reference", profile::Sha256Hex(user.reference.text)},
          {"filter", Joined(options.filters)},
          {"samples", options.samples.value_or(kSweepSamples)},
          {"pass_ms", options.pass_ms},
          {"warmup_ms", options.warmup_ms},
          {"quick", options.quick},
          {"seed", seed},
          {"timestamps", !options.no_timestamps},
          {"cold_mib", options.cold_mib ? static_cast<int64_t>(*options.cold_mib) : 0}};
}

int RunTuneCommand(TuneOptions options, std::ostream& out) {
  auto user = std::make_shared<const tune::UserKernel>(
      tune::LoadUserKernel(options.kernel_path, options.spec_path));
  std::optional<uint64_t> seed = options.seed;
  if (!seed && options.resume) seed = JournalSeed(options.journal_path);
  if (!seed) seed = std::random_device{}();
  std::vector<suites::sweeps::Sweep> plan;
  plan.push_back(suites::user::MakeUserSweep(user, options.quick, *seed,
                                             options.cold_mib ? *options.cold_mib << 20 : 0));
  if (!options.filters.empty()) suites::sweeps::KeepMatching(plan, options.filters);
  if (ListOnly(plan, options, out)) return kExitOk;
  std::map<std::string, std::string> described = {{"kernel_file", options.kernel_path},
                                                  {"spec", options.spec_path},
                                                  {"tune", user->spec.name}};
  return RunPlan(plan, options, "tune", Identity(options, *user, *seed), std::move(described),
                 *seed, user->InputPaths(), out);
}

}  // namespace

Registered RegisterTune(CLI::App& app) {
  auto options = std::make_shared<TuneOptions>();
  CLI::App* command = app.add_subcommand(
      "tune", "Sweep your own WGSL kernel over its override constants, each configuration "
              "verified against your reference (docs/TUNE.md)");
  CheckFileName(command->add_option("kernel", options->kernel_path, "The kernel's WGSL file"))
      ->required();
  CheckFileName(command->add_option("--spec", options->spec_path,
                                    "The tuning spec (JSON; docs/tune-spec.schema.json)"))
      ->required();
  CheckWholeWithin(
      command->add_option("--cold-mib", options->cold_mib,
                          "Span of the rotated input copies [MiB] (default 512 on GPUs, 128 on "
                          "CPUs)"),
      1, uint64_t{1} << 20);
  options->journal_path = "refract-tune.journal";
  AddSweepRunOptions(*command, *options);
  Action action = [options](std::ostream& out, std::ostream&) {
    return RunTuneCommand(*options, out);
  };
  return {command, action};
}

}  // namespace refract::cli
