// refract kernels: the LLM kernels at real model shapes, verified, baseline and tuned, on the
// device's roofline.

#include <cmath>

#include "base/adapter_identity.h"
#include "base/error.h"
#include "cli/commands.h"
#include "cli/kernels_profile.h"
#include "cli/number_checks.h"
#include "cli/profile_store.h"
#include "cli/suite_command.h"
#include "ops/axis.h"
#include "results/run_file.h"
#include "suites/kernels/catalog.h"
#include "suites/kernels/kernels_rules.h"
#include "suites/kernels/model_shapes.h"

namespace refract::cli {
namespace {

struct KernelsOptions {
  SuiteOptions suite;
  suites::kernels::KernelSelection selection;
  bool list = false;
  std::string ceilings_path;
  std::string profile_path;  ///< a profile store whose winners the tuned rows run; "": none
  std::optional<uint64_t> cold_mib;
  std::vector<std::string> set_pairs;     ///< --set NAME=VALUE
  std::optional<uint32_t> time_dispatch;  ///< --time-dispatch INDEX
};

/// The roofline ceilings of a `refract ceilings` document, and the device it was measured on.
suites::kernels::RooflineCeilings LoadCeilings(const std::string& path, DeviceDescription& device) {
  results::RunRecord record = results::ReadRunFile(path);  // UsageError naming the file
  device = record.device;
  suites::kernels::RooflineCeilings ceilings = suites::kernels::CeilingsFromSummary(record.summary);
  if (!std::isfinite(ceilings.read_bandwidth_Bps) || !std::isfinite(ceilings.fma_flops)) {
    throw UsageError("--ceilings file '" + path +
                     "' has no read_bandwidth_Bps or f32_fma_flops in its summary (run "
                     "`refract ceilings` with read-linear and the f32-fma rows)");
  }
  // A rate of 0 or below never gets here: the reader refuses it (results/record_checks.h).
  return ceilings;
}

int RunKernelsCommand(const KernelsOptions& options, std::ostream& out) {
  SuiteOptions suite = options.suite;
  suite.seed = RunSeed(suite);  // the rows' inputs derive from it, so it is settled first
  suites::kernels::CatalogOptions catalog{.seed = *suite.seed};
  if (options.cold_mib) catalog.cold_footprint_bytes = *options.cold_mib << 20;
  catalog.time_dispatch = options.time_dispatch;
  const std::vector<std::string>& kernels = options.selection.kernels;
  if (!options.set_pairs.empty()) {
    if (kernels.size() != 1) {
      throw UsageError("--set applies to one kernel's tuned rows: name it with --kernel");
    }
    catalog.settings = ops::ParseSettings(
        options.set_pairs, suites::kernels::TunedAxes(kernels.front()), kernels.front());
  }
  if (!options.profile_path.empty() && !catalog.settings.empty()) {
    throw UsageError("--set and --profile both choose the tuned rows' configuration: use one");
  }
  auto kernel_rows = suites::kernels::MakeKernelRows(options.selection, catalog);
  if (options.list) {
    PrintBenchmarkList(out, kernel_rows);
    return 0;
  }
  std::optional<suites::kernels::RooflineCeilings> loaded;
  DeviceDescription ceilings_device;
  if (!options.ceilings_path.empty()) {
    loaded = LoadCeilings(options.ceilings_path, ceilings_device);
  }
  // Read before anything runs: a store that is no store is exit 2, and left as it is.
  std::optional<profile::Store> store;
  if (!options.profile_path.empty()) store = ReadStore(options.profile_path);
  std::vector<std::unique_ptr<bench::Benchmark>> rows;
  if (!loaded) rows = suites::kernels::MakeRooflineCeilingRows();
  const size_t ceiling_rows = rows.size();
  for (auto& row : kernel_rows) rows.push_back(std::move(row));

  const suites::kernels::KernelSelection& s = options.selection;
  SuiteRun run{.command = "kernels", .summary_title = "Roofline ceilings and device ceilings"};
  std::string kernel_list;
  for (const std::string& k : s.kernels) kernel_list += (kernel_list.empty() ? "" : ",") + k;
  run.options = {{"model", s.model},
                 {"variant", s.variant},
                 {"phase", s.phase},
                 {"preset", s.preset},
                 {"kernels", kernel_list.empty() ? "all" : kernel_list},
                 {"ceilings", options.ceilings_path.empty() ? "measured" : options.ceilings_path}};
  if (options.cold_mib) run.options["cold_mib"] = std::to_string(*options.cold_mib);
  if (!catalog.settings.empty()) run.options["set"] = ops::SettingsText(catalog.settings);
  std::string filters;
  for (const std::string& f : s.globs) filters += (filters.empty() ? "" : ",") + f;
  if (!filters.empty()) run.options["filter"] = filters;
  if (options.time_dispatch) run.options["time_dispatch"] = std::to_string(*options.time_dispatch);
  if (store) {
    run.options["profile"] = options.profile_path;
    run.inputs.push_back(options.profile_path);
    run.adapt_rows = [&store, &options, catalog](
                         gpu::Context& context,
                         std::vector<std::unique_ptr<bench::Benchmark>>& benchmarks) {
      ApplyProfile(*store, context, options.selection, catalog, benchmarks);
    };
  }
  const suites::kernels::KernelsRules rules(loaded);
  run.rules = &rules;
  run.leading = ceiling_rows;  // the roofline's ceilings are measured first, to the end
  if (loaded) {
    run.inputs.push_back(options.ceilings_path);
    run.check_device = [path = options.ceilings_path,
                        theirs = IdentityOf(ceilings_device)](const DeviceDescription& ours) {
      const std::string difference = IdentityDifference(IdentityOf(ours), theirs);
      if (!difference.empty()) {
        throw UsageError("--ceilings file '" + path + "' was measured on another adapter (" +
                         difference + "): its ceilings are not this device's");
      }
    };
  }
  return RunSuite(suite, run, rows, out);
}

}  // namespace

Registered RegisterKernels(CLI::App& app) {
  auto options = std::make_shared<KernelsOptions>();
  CLI::App* command = app.add_subcommand(
      "kernels", "The LLM kernels at model shapes: verified, baseline and tuned, on the roofline");
  suites::kernels::KernelSelection& s = options->selection;
  command->add_option("--model", s.model, "qwen2.5-0.5b or embeddinggemma2")->capture_default_str();
  command->add_option("--kernel", s.kernels, "Kernels to run: NAME[,NAME...] (see --list)")
      ->delimiter(',');
  command->add_option("--variant", s.variant, "baseline, tuned, tuned-q8 or both (every variant)")
      ->capture_default_str();
  command->add_option("--phase", s.phase, "decode, prefill or all")->capture_default_str();
  command->add_option("--filter", s.globs, "Only the selected rows whose id matches GLOB[,GLOB...]")
      ->delimiter(',');
  command
      ->add_option("--preset", s.preset,
                   "full, or quick: decode rows at a cache of 1024, no reference shapes")
      ->capture_default_str();
  command->add_flag("--list", options->list, "List the selected rows and exit");
  CheckFileName(command->add_option("--profile", options->profile_path,
                      "Run each tuned row with this profile store's winner for this adapter and "
                      "shape, where it has a fresh one (params config_source says which)"));
  CheckFileName(command->add_option(
      "--ceilings", options->ceilings_path,
      "Roofline ceilings from a `refract ceilings` JSON instead of measuring them"));
  CheckWholeWithin(
      command->add_option("--cold-mib", options->cold_mib,
                          "Span of the rotated input copies [MiB] (default 512 on GPUs, 128 on "
                          "CPUs)"),
      1, uint64_t{1} << 20);
  command->add_option("--set", options->set_pairs,
                      "Fix an axis of the kernel's tuned ops, NAME=VALUE (repeatable; one "
                      "--kernel; docs/KERNELS.md lists the axes)");
  CheckWholeWithin(command->add_option(
                       "--time-dispatch", options->time_dispatch,
                       "Time only dispatch INDEX (from 0) of each row's call, the whole call "
                       "still verified: what each dispatch of a multi-dispatch op costs (params "
                       "timed_dispatch)"),
                   0, 64);
  AddSuiteOptions(*command, options->suite);
  Action action = [options](std::ostream& out, std::ostream&) {
    return RunKernelsCommand(*options, out);
  };
  return {command, action};
}

}  // namespace refract::cli
