#include "cli/suite_command.h"

#include <fmt/format.h>

#include <iostream>
#include <random>
#include <string>
#include <type_traits>

#include "base/error.h"
#include "bench/session.h"
#include "cli/app.h"
#include "cli/interrupts.h"
#include "cli/number_checks.h"
#include "gpu/context.h"
#include "kernels/embedded_kernels.h"
#include "report/final_table.h"
#include "report/live_table.h"
#include "report/terminal.h"
#include "results/json_io.h"
#include "results/output_file.h"

namespace refract::cli {
namespace {

/// The shared options as the record keeps them; `run` as the run uses the harness knobs.
std::map<std::string, std::string> DescribeShared(const SuiteOptions& o,
                                                  const bench::RunOptions& run, uint64_t seed) {
  const measure::SchedulerOptions& s = run.scheduler;
  const measure::StoppingOptions& stop = s.stopping;
  const measure::CalibrationOptions& c = run.calibration;
  std::map<std::string, std::string> options = {
      {"adapter", o.gpu.adapter},
      {"default_limits", o.gpu.default_limits ? "true" : "false"},
      {"timeout_s", fmt::format("{}", o.gpu.timeout_s)},
      {"seed", std::to_string(seed)},
      {"timestamps", o.no_timestamps ? "off" : "on"},
      {"throttle_factor", fmt::format("{}", s.throttle_factor)},
      {"idle_gap_ms", fmt::format("{}", s.idle_gap_ms)},
      {"cooldown_ms", fmt::format("{}", s.cooldown_ms)},
      {"max_cooldowns", std::to_string(s.max_cooldowns)},
      {"dispatch_ms", fmt::format("{}", c.target_dispatch_ms)},
      {"batch_ms", fmt::format("{}", c.batch_target_ms)},
      {"max_dispatches", std::to_string(c.max_dispatches)},
  };
  if (stop.kind == measure::StoppingKind::kFixedCount) {
    options["samples"] = std::to_string(stop.samples);
  } else {
    options["min_rounds"] = std::to_string(stop.min_rounds);
    options["max_rounds"] = std::to_string(stop.max_rounds);
    options["stable_rounds"] = std::to_string(stop.stable_rounds);
    options["tolerance"] = fmt::format("{}", stop.tolerance);
  }
  return options;
}

/// Adds `name` bound to `value`: values outside [lowest, highest] are refused, and the help
/// shows the default.
template <typename T>
void AddRangedOption(CLI::App& command, const std::string& name, T& value, const std::string& help,
                     std::type_identity_t<T> lowest, std::type_identity_t<T> highest) {
  CLI::Option* option = command.add_option(name, value, help)->capture_default_str();
  if constexpr (std::is_floating_point_v<T>) {
    CheckFiniteWithin(option, lowest, highest);  // NaN passes a plain Range
  } else {
    CheckWholeWithin(option, lowest, highest);
  }
}

}  // namespace

void AddCommonOptions(CLI::App& command, CommonOptions& options, bool samples) {
  AddGpuOptions(command, options.gpu);
  CheckFileName(command.add_option(
      "--json", options.json_path,
      "Write the results as JSON to FILE (a file is replaced atomically, through links; a pipe "
      "or device is written to), or to standard output with -"));
  AddReportOutputOptions(command, options.reports);
  CheckWholeWithin(command.add_option("--seed", options.seed,
                                      "The run's seed: its random inputs and the order its rows "
                                      "are measured in derive from it (default: random, "
                                      "recorded)"),
                   0, UINT64_MAX);
  command.add_flag("--no-live", options.no_live, "Plain lines instead of a live table");
  command.add_flag("--no-timestamps", options.no_timestamps, "Time with the wall clock only");
  if (!samples) return;
  CheckWholeWithin(command.add_option("--samples", options.samples,
                                      "Take exactly N samples a row, reported as median and "
                                      "p10-p90 (default: the suites' best-of-N, a sweep's 25)"),
                   1, 10000);
}

uint64_t RunSeed(const CommonOptions& options) {
  return options.seed ? *options.seed : std::random_device{}();
}

void AddSuiteOptions(CLI::App& command, SuiteOptions& options) {
  AddCommonOptions(command, options);
  measure::SchedulerOptions& s = options.run.scheduler;
  measure::StoppingOptions& stop = s.stopping;
  measure::CalibrationOptions& c = options.run.calibration;
  AddRangedOption(command, "--min-rounds", stop.min_rounds, "Samples before convergence is judged",
                  1, 1000);
  AddRangedOption(command, "--max-rounds", stop.max_rounds, "Sample budget per row", 1, 1000);
  AddRangedOption(command, "--stable-rounds", stop.stable_rounds,
                  "Samples that must not improve the best", 1, 100);
  AddRangedOption(command, "--tolerance", stop.tolerance, "Convergence tolerance (fraction)", 0.0,
                  0.5);
  AddRangedOption(command, "--throttle-factor", s.throttle_factor,
                  "Samples slower than this × the best are throttled", 1.0, 100.0);
  AddRangedOption(command, "--idle-gap-ms", s.idle_gap_ms, "Pause between measurements [ms]", 0.0,
                  60000.0);
  AddRangedOption(command, "--cooldown-ms", s.cooldown_ms, "Pause after a throttled round [ms]",
                  0.0, 600000.0);
  AddRangedOption(command, "--max-cooldowns", s.max_cooldowns,
                  "Cooldowns before rows end as throttled", 0, 100);
  AddRangedOption(command, "--dispatch-ms", c.target_dispatch_ms,
                  "Work ramp target per dispatch [ms]", 0.01, 10000.0);
  AddRangedOption(command, "--batch-ms", c.batch_target_ms,
                  "Batch target; sizing stops at half [ms]", 0.01, 100000.0);
  AddRangedOption(command, "--max-dispatches", c.max_dispatches, "Cap on dispatches in one batch",
                  1, 10000000);
}

int RunSuite(const SuiteOptions& options, const SuiteRun& run,
             std::vector<std::unique_ptr<bench::Benchmark>>& benchmarks, std::ostream& out) {
  // Fail before a long run, not after it.
  std::string kernel_dir;
  try {
    kernel_dir = wgsl::KernelDir();
  } catch (const Error& error) {
    throw EnvironmentError(error.what());  // exit 2, without the --help hint
  }
  CheckOutputPaths({options.json_path, options.reports.html_path, options.reports.csv_path,
                    options.reports.markdown_path},
                   run.inputs);
  const uint64_t seed = RunSeed(options);
  InterruptHandling interrupts;  // SIGINT, SIGTERM: stop after the current measurement
  bench::RunOptions run_options = options.run;
  if (options.samples) {
    run_options.scheduler.stopping.kind = measure::StoppingKind::kFixedCount;
    run_options.scheduler.stopping.samples = *options.samples;
  }
  run_options.use_timestamps = !options.no_timestamps;
  run_options.scheduler.stop_requested = [] { return InterruptHandling::StopRequested(); };
  std::map<std::string, std::string> described = DescribeShared(options, run_options, seed);
  for (const auto& [key, value] : run.options) described[key] = value;
  if (!kernel_dir.empty()) described["kernel_dir"] = kernel_dir;  // rows name what it replaced

  // With --json - (or another output to -) the document owns standard output; the tables go to
  // standard error.
  const bool json_to_stdout = options.json_path == "-" || options.reports.AnyToStdout();
  std::ostream& tables = json_to_stdout ? std::cerr : out;
  report::TerminalStyle style = report::DetectTerminalStyle(json_to_stdout ? stderr : stdout);
  if (options.no_live || (&tables != &std::cout && &tables != &std::cerr)) style.is_tty = false;
  if (!style.is_tty) style.color = false;

  bench::RunSession session(run.command, std::move(described), seed);
  gpu::Context context(ToContextOptions(options.gpu));
  if (run.check_device) run.check_device(context.description());
  if (run.adapt_rows) run.adapt_rows(context, benchmarks);
  tables << fmt::format("refract {} on {} ({}), {} rows, seed {}\n", run.command,
                        context.description().device, context.description().backend,
                        benchmarks.size(), seed);
  std::vector<std::string> ids;
  std::vector<std::vector<bench::Benchmark*>> stages(run.leading > 0 ? 2 : 1);
  for (size_t i = 0; i < benchmarks.size(); ++i) {
    ids.push_back(benchmarks[i]->info().id);
    stages[run.leading > 0 && i >= run.leading ? 1 : 0].push_back(benchmarks[i].get());
  }
  report::LiveTable live(tables, style, ids);
  static const bench::SuiteRules kNoRules;
  const results::RunRecord& record =
      session.Run(context, stages, run_options, run.rules ? *run.rules : kNoRules, &live);
  live.Finish();
  tables << "\n";
  report::RenderFinalTable(tables, record, style, run.summary_title);
  if (!options.json_path.empty()) {
    {
      OutputWriting writing;  // a second interrupt waits for the document to be whole
      results::WriteOutput(options.json_path, results::ToJson(record).dump(2) + "\n", out);
    }
    // Only after the write succeeded: a failure threw OutputError (exit 2) before this line.
    if (options.json_path != "-") tables << "results written to " << options.json_path << "\n";
  }
  {
    OutputWriting writing;
    WriteReports(options.reports, {{RunLabel(options.json_path, run.command), record}}, out,
                 tables);
  }
  if (context.hung()) return kExitTimeout;
  if (InterruptHandling::StopRequested()) return kExitInterrupted;
  const bool any_error = std::any_of(record.rows.begin(), record.rows.end(), [](const auto& row) {
    return row.status == results::RowStatus::kError;
  });
  return any_error ? kExitRowsFailed : kExitOk;
}

void PrintBenchmarkList(std::ostream& out,
                        const std::vector<std::unique_ptr<bench::Benchmark>>& benchmarks) {
  size_t id_width = 2, category_width = 8, unit_width = 4, needs_width = 5;
  for (const auto& benchmark : benchmarks) {
    const bench::BenchmarkInfo& info = benchmark->info();
    id_width = std::max(id_width, info.id.size());
    category_width = std::max(category_width, info.category.size());
    unit_width = std::max(unit_width, info.unit.size());
    needs_width = std::max(needs_width, info.needs.size());
  }
  auto line = [&](std::string_view id, std::string_view category, std::string_view unit,
                  std::string_view needs, std::string_view description) {
    out << fmt::format("{:<{}}  {:<{}}  {:<{}}  {:<{}}  {}\n", id, id_width, category,
                       category_width, unit, unit_width, needs, needs_width, description);
  };
  line("id", "category", "unit", "needs", "description");
  for (const auto& benchmark : benchmarks) {
    const bench::BenchmarkInfo& info = benchmark->info();
    line(info.id, info.category, info.unit, info.needs.empty() ? "-" : info.needs,
         info.description);
  }
}

}  // namespace refract::cli
