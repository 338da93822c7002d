// refract ceilings: the device's raw limits, measured and verified.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <random>

#include "base/error.h"
#include "cli/commands.h"
#include "cli/gpu_options.h"
#include "gpu/context.h"
#include "report/final_table.h"
#include "report/live_table.h"
#include "report/terminal.h"
#include "results/atomic_file.h"
#include "results/json_io.h"
#include "suites/ceilings/catalog.h"
#include "suites/ceilings/ceilings_suite.h"

namespace refract::cli {
namespace {

struct CeilingsOptions {
  GpuOptions gpu;
  std::vector<std::string> filters;
  std::string category;
  std::string preset = "full";
  bool list = false;
  std::string json_path;
  std::optional<uint64_t> seed;
  std::optional<uint64_t> buffer_mib;
  bool no_live = false;
  bool no_timestamps = false;
  suites::ceilings::CeilingsRunOptions run;
};

std::string IsoUtcNow() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

/// Feeds the live table from the suite's progress.
class LiveProgress final : public suites::ceilings::CeilingsProgress {
 public:
  explicit LiveProgress(report::LiveTable& table) : table_(table) {}
  void OnRow(const results::ResultRow& row) override { table_.Update(row); }
  void OnRound(int round, int settled, int total, double eta_s) override {
    table_.SetProgress(round, settled, total, eta_s);
  }

 private:
  report::LiveTable& table_;
};

void PrintList(std::ostream& out,
               const std::vector<std::unique_ptr<suites::ceilings::CeilingRow>>& rows) {
  size_t id_width = 2, unit_width = 4, needs_width = 5;
  for (const auto& row : rows) {
    id_width = std::max(id_width, row->info().id.size());
    unit_width = std::max(unit_width, row->info().unit.size());
    needs_width = std::max(needs_width, row->info().needs.size());
  }
  auto line = [&](std::string_view id, std::string_view category, std::string_view unit,
                  std::string_view needs, std::string_view description) {
    out << fmt::format("{:<{}}  {:<9}  {:<{}}  {:<{}}  {}\n", id, id_width, category, unit,
                       unit_width, needs, needs_width, description);
  };
  line("id", "category", "unit", "needs", "description");
  for (const auto& row : rows) {
    const suites::ceilings::RowInfo& info = row->info();
    line(info.id, info.category, info.unit, info.needs.empty() ? "-" : info.needs,
         info.description);
  }
}

std::map<std::string, std::string> DescribeOptions(const CeilingsOptions& o, uint64_t seed) {
  const measure::SchedulerOptions& s = o.run.scheduler;
  const measure::CalibrationOptions& c = o.run.calibration;
  std::map<std::string, std::string> options = {
      {"adapter", o.gpu.adapter},
      {"default_limits", o.gpu.default_limits ? "true" : "false"},
      {"preset", o.filters.empty() ? o.preset : "(filter)"},
      {"seed", std::to_string(seed)},
      {"timestamps", o.no_timestamps ? "off" : "on"},
      {"min_rounds", std::to_string(s.min_rounds)},
      {"max_rounds", std::to_string(s.max_rounds)},
      {"stable_rounds", std::to_string(s.stable_rounds)},
      {"tolerance", fmt::format("{}", s.tolerance)},
      {"throttle_factor", fmt::format("{}", s.throttle_factor)},
      {"idle_gap_ms", fmt::format("{}", s.idle_gap_ms)},
      {"cooldown_ms", fmt::format("{}", s.cooldown_ms)},
      {"max_cooldowns", std::to_string(s.max_cooldowns)},
      {"dispatch_ms", fmt::format("{}", c.target_dispatch_ms)},
      {"batch_ms", fmt::format("{}", c.batch_target_ms)},
      {"max_dispatches", std::to_string(c.max_dispatches)},
  };
  std::string filters;
  for (const std::string& f : o.filters) filters += (filters.empty() ? "" : ",") + f;
  if (!filters.empty()) options["filter"] = filters;
  if (!o.category.empty()) options["category"] = o.category;
  if (o.buffer_mib) options["buffer_mib"] = std::to_string(*o.buffer_mib);
  return options;
}

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
    PrintList(out, rows);
    return 0;
  }

  // Fail before a long run, not after it, when the results cannot be written.
  if (!options.json_path.empty() && options.json_path != "-") {
    std::filesystem::path parent = std::filesystem::absolute(options.json_path).parent_path();
    if (!std::filesystem::is_directory(parent) || access(parent.c_str(), W_OK) != 0) {
      throw UsageError("cannot write results to '" + options.json_path + "': folder '" +
                       parent.string() + "' does not exist or is not writable");
    }
  }
  uint64_t seed = options.seed ? *options.seed : std::random_device{}();
  suites::ceilings::CeilingsRunOptions run = options.run;
  run.scheduler.seed = seed;
  run.use_timestamps = !options.no_timestamps;

  // With --json - the document owns standard output; the tables go to standard error.
  bool json_to_stdout = options.json_path == "-";
  std::ostream& tables = json_to_stdout ? std::cerr : out;
  report::TerminalStyle style = report::DetectTerminalStyle(json_to_stdout ? stderr : stdout);
  if (options.no_live || (&tables != &std::cout && &tables != &std::cerr)) style.is_tty = false;
  if (!style.is_tty) style.color = false;

  results::RunRecord record;
  record.tool_version = REFRACT_VERSION;
  record.dawn_package = REFRACT_DAWN_PACKAGE;
  record.command = "ceilings";
  record.seed = seed;
  record.options = DescribeOptions(options, seed);
  record.started_at = IsoUtcNow();
  auto start = std::chrono::steady_clock::now();

  gpu::Context context(ToContextOptions(options.gpu));
  record.device = context.description();
  tables << fmt::format("refract ceilings on {} ({}), {} rows, seed {}\n", record.device.device,
                        record.device.backend, rows.size(), seed);
  std::vector<std::string> ids;
  for (const auto& row : rows) ids.push_back(row->info().id);
  report::LiveTable live(tables, style, ids);
  LiveProgress progress(live);
  record.rows = suites::ceilings::RunCeilings(context, rows, run, &progress);
  live.Finish();

  record.ceilings = suites::ceilings::SummarizeCeilings(record.rows);
  record.finished_at = IsoUtcNow();
  record.wall_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  tables << "\n";
  report::RenderFinalTable(tables, record, style);
  if (!options.json_path.empty()) {
    results::WriteOutput(options.json_path, results::ToJson(record).dump(2) + "\n", out);
    if (!json_to_stdout) tables << "results written to " << options.json_path << "\n";
  }
  bool any_error = std::any_of(record.rows.begin(), record.rows.end(), [](const auto& row) {
    return row.status == results::RowStatus::kError;
  });
  return any_error ? 1 : 0;
}

}  // namespace

Registered RegisterCeilings(CLI::App& app) {
  auto options = std::make_shared<CeilingsOptions>();
  CLI::App* command = app.add_subcommand(
      "ceilings", "Measure the device's raw limits: bandwidth, FMA rates, math and integer ops");
  AddGpuOptions(*command, options->gpu);
  command->add_option("--filter", options->filters, "Rows whose id matches GLOB[,GLOB...]")
      ->delimiter(',');
  command->add_option("--category", options->category, "compute, bandwidth or algorithm");
  command
      ->add_option("--preset", options->preset,
                   "Row set when no --filter is given: core, quick or full")
      ->capture_default_str();
  command->add_flag("--list", options->list, "List the selected rows and exit");
  command->add_option(
      "--json", options->json_path,
      "Write the results as JSON to FILE (atomically), or to standard output with -");
  command->add_option("--seed", options->seed,
                      "Seed of the round order (default: random, recorded)");
  command
      ->add_option("--buffer-mib", options->buffer_mib,
                   "Bandwidth buffer size [MiB] (default: the largest binding up to 1024)")
      ->check(CLI::Range(uint64_t{4}, uint64_t{1} << 20));
  command->add_flag("--no-live", options->no_live, "Plain lines instead of a live table");
  command->add_flag("--no-timestamps", options->no_timestamps, "Time with the wall clock only");
  measure::SchedulerOptions& s = options->run.scheduler;
  measure::CalibrationOptions& c = options->run.calibration;
  command->add_option("--min-rounds", s.min_rounds, "Samples before convergence is judged")
      ->check(CLI::Range(1u, 1000u))
      ->capture_default_str();
  command->add_option("--max-rounds", s.max_rounds, "Sample budget per row")
      ->check(CLI::Range(1u, 1000u))
      ->capture_default_str();
  command->add_option("--stable-rounds", s.stable_rounds, "Samples that must not improve the best")
      ->check(CLI::Range(1u, 100u))
      ->capture_default_str();
  command->add_option("--tolerance", s.tolerance, "Convergence tolerance (fraction)")
      ->check(CLI::Range(0.0, 0.5))
      ->capture_default_str();
  command
      ->add_option("--throttle-factor", s.throttle_factor,
                   "Samples slower than this × the best are throttled")
      ->check(CLI::Range(1.0, 100.0))
      ->capture_default_str();
  command->add_option("--idle-gap-ms", s.idle_gap_ms, "Pause between measurements [ms]")
      ->check(CLI::Range(0.0, 60000.0))
      ->capture_default_str();
  command->add_option("--cooldown-ms", s.cooldown_ms, "Pause after a throttled round [ms]")
      ->check(CLI::Range(0.0, 600000.0))
      ->capture_default_str();
  command->add_option("--max-cooldowns", s.max_cooldowns, "Cooldowns before rows end as throttled")
      ->check(CLI::Range(0u, 100u))
      ->capture_default_str();
  command->add_option("--dispatch-ms", c.target_dispatch_ms, "Work ramp target per dispatch [ms]")
      ->check(CLI::Range(0.01, 10000.0))
      ->capture_default_str();
  command->add_option("--batch-ms", c.batch_target_ms, "Batch target; sizing stops at half [ms]")
      ->check(CLI::Range(0.01, 100000.0))
      ->capture_default_str();
  command->add_option("--max-dispatches", c.max_dispatches, "Cap on dispatches in one batch")
      ->check(CLI::Range(1u, 10000000u))
      ->capture_default_str();
  Action action = [options](std::ostream& out, std::ostream&) {
    return RunCeilingsCommand(*options, out);
  };
  return {command, action};
}

}  // namespace refract::cli
