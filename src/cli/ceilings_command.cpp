// refract ceilings: the device's raw limits, measured and verified.
#include "base/error.h"
#include "cli/commands.h"
#include "cli/number_checks.h"
#include "cli/suite_command.h"
#include "suites/ceilings/catalog.h"
#include "suites/ceilings/ceilings_rules.h"

namespace refract::cli {
namespace {

struct CeilingsOptions {
  SuiteOptions suite;
  std::vector<std::string> filters;
  std::string category;
  std::string preset = "full";
  bool list = false;
  std::optional<uint64_t> buffer_mib;
};

int RunCeilingsCommand(const CeilingsOptions& options, std::ostream& out) {
  suites::ceilings::CatalogOptions catalog_options;
  if (options.buffer_mib) catalog_options.bandwidth_buffer_bytes = *options.buffer_mib << 20;
  suites::ceilings::Selection selection;
  selection.globs = options.filters;
  if (!options.category.empty()) selection.category = options.category;
  selection.preset = suites::ceilings::PresetFromName(options.preset);
  auto rows =
      suites::ceilings::SelectRows(suites::ceilings::MakeCatalog(catalog_options), selection);
  if (options.list) {
    PrintBenchmarkList(out, rows);
    return 0;
  }

  SuiteRun run;
  run.command = "ceilings";
  run.summary_title = "Device ceilings";
  run.options["preset"] = options.filters.empty() ? options.preset : "(filter)";
  std::string filters;
  for (const std::string& f : options.filters) filters += (filters.empty() ? "" : ",") + f;
  if (!filters.empty()) run.options["filter"] = filters;
  if (!options.category.empty()) run.options["category"] = options.category;
  if (options.buffer_mib) run.options["buffer_mib"] = std::to_string(*options.buffer_mib);
  const suites::ceilings::CeilingsRules rules;
  run.rules = &rules;
  return RunSuite(options.suite, run, rows, out);
}

}  // namespace

Registered RegisterCeilings(CLI::App& app) {
  auto options = std::make_shared<CeilingsOptions>();
  CLI::App* command = app.add_subcommand(
      "ceilings", "Measure the device's raw limits: bandwidth, FMA rates, math and integer ops");
  command->add_option("--filter", options->filters, "Rows whose id matches GLOB[,GLOB...]")
      ->delimiter(',');
  command->add_option("--category", options->category, "compute, bandwidth or algorithm");
  command
      ->add_option("--preset", options->preset,
                   "Row set when no --filter is given: core, quick or full")
      ->capture_default_str();
  command->add_flag("--list", options->list, "List the selected rows and exit");
  CheckWholeWithin(
      command->add_option("--buffer-mib", options->buffer_mib,
                          "Bandwidth buffer size [MiB] (default: the largest binding up to 1024)"),
      4, uint64_t{1} << 20);
  AddSuiteOptions(*command, options->suite);
  Action action = [options](std::ostream& out, std::ostream&) {
    return RunCeilingsCommand(*options, out);
  };
  return {command, action};
}

}  // namespace refract::cli
