// refract compare: which rows got faster or slower between two runs, beyond their noise.
#include <fmt/format.h>

#include <iostream>

#include "base/error.h"
#include "cli/commands.h"
#include "cli/number_checks.h"
#include "cli/report_outputs.h"
#include "report/compare_table.h"
#include "report/html_page.h"
#include "results/output_file.h"
#include "results/run_file.h"

namespace refract::cli {
namespace {

struct CompareCommandOptions {
  std::string base_path;
  std::string new_path;
  double threshold_pct = 5;
  bool fail_on_slower = false;
  bool cross_device = false;
  std::string html_path;
};

std::string Describe(const std::string& path, const results::RunRecord& record) {
  return fmt::format("{}: refract {} {} on {} ({}), started {}", path, record.command,
                     record.tool_version, record.device.device, record.device.description,
                     record.started_at);
}

int RunCompare(const CompareCommandOptions& options, std::ostream& out, std::ostream& err) {
  CheckOutputPaths({options.html_path}, {options.base_path, options.new_path});
  const results::RunRecord base = results::ReadRunFile(options.base_path);
  const results::RunRecord next = results::ReadRunFile(options.new_path);
  std::vector<report::LabeledRun> runs = {{"base: " + RunLabel(options.base_path, "base"), base},
                                          {"new: " + RunLabel(options.new_path, "new"), next}};
  std::ostream& tables = options.html_path == "-" ? err : out;
  report::TerminalStyle style;
  if (&tables == &std::cout) style = report::DetectTerminalStyle(stdout);
  if (!style.is_tty) style.color = false;

  nlohmann::json model;
  int exit_code = 0;
  if (options.cross_device) {
    report::RenderCrossDevice(tables, results::CompareAcrossDevices(base, next),
                              Describe(options.base_path, base), Describe(options.new_path, next));
    model = report::BuildReportModel(runs);
  } else {
    if (!results::SameAdapter(base.device, next.device)) {
      throw UsageError(fmt::format(
          "'{}' ran on {} and '{}' on {}: runs from different adapters are not compared "
          "(--cross-device prints a ratio table instead)",
          options.base_path, results::AdapterName(base.device), options.new_path,
          results::AdapterName(next.device)));
    }
    results::CompareOptions compare_options;
    compare_options.threshold = options.threshold_pct / 100;
    const results::Comparison comparison = results::CompareRuns(base, next, compare_options);
    tables << "base: " << Describe(options.base_path, base) << "\n"
           << "new:  " << Describe(options.new_path, next) << "\n\n";
    report::RenderComparison(tables, comparison, style);
    model = report::BuildReportModel(runs);
    model["comparison"] = report::ComparisonJson(comparison);
    if (options.fail_on_slower && comparison.Count(results::Verdict::kSlower) > 0) exit_code = 1;
  }
  if (!options.html_path.empty()) {
    results::WriteOutput(options.html_path, report::RenderHtmlPage(model, Generator()), out);
    if (options.html_path != "-") tables << "HTML report written to " << options.html_path << "\n";
  }
  return exit_code;
}

}  // namespace

Registered RegisterCompare(CLI::App& app) {
  auto options = std::make_shared<CompareCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "compare", "Compare two result files row by row: SAME, FASTER, SLOWER or NOISY");
  CheckFileName(
      command->add_option("base", options->base_path, "The result file to compare against")
          ->required());
  CheckFileName(command->add_option("new", options->new_path, "The newer result file")->required());
  CheckFiniteWithin(command->add_option("--threshold", options->threshold_pct,
                                        "Smallest change in time worth calling [%]"),
                    0.0, 1000.0)
      ->capture_default_str();
  command->add_flag("--fail-on-slower", options->fail_on_slower,
                    "Exit with status 1 when any row got slower (for CI)");
  command->add_flag("--cross-device", options->cross_device,
                    "Runs from different adapters: print a table of time ratios, no verdicts");
  CheckFileName(command->add_option(
      "--html", options->html_path,
      "Also write an HTML report of both runs and the comparison to FILE"));
  Action action = [options](std::ostream& out, std::ostream& err) {
    return RunCompare(*options, out, err);
  };
  return {command, action};
}

}  // namespace refract::cli
