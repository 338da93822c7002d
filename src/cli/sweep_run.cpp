#include "cli/sweep_run.h"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "base/error.h"
#include "bench/session.h"
#include "cli/app.h"
#include "cli/interrupts.h"
#include "cli/number_checks.h"
#include "cli/profile_store.h"
#include "cli/report_outputs.h"
#include "cli/sweep_worker_process.h"
#include "profile/document_text.h"
#include "report/sweep_lines.h"
#include "report/terminal.h"
#include "results/json_io.h"
#include "results/output_file.h"
#include "suites/sweeps/sweep_review.h"
#include "suites/sweeps/sweep_runner.h"
#include "tune/sweep_journal.h"
#include "tune/sweep_supervisor.h"

namespace refract::cli {
namespace {

namespace sweeps = suites::sweeps;

uint64_t CountRows(const std::vector<sweeps::Sweep>& plan) {
  uint64_t rows = 0;
  for (const sweeps::Sweep& sweep : plan) rows += sweep.rows.size();
  return rows;
}

/// One worker: a device, then every configuration the journal lacks. Returns its exit code.
int RunWorker(const SweepRunOptions& options, std::vector<sweeps::Sweep>& plan,
              tune::SweepJournal& journal, std::ostream& out) {
  InterruptHandling interrupts;
  try {
    gpu::ContextOptions context_options = ToContextOptions(options.gpu);
    gpu::Context context(context_options);
    journal.AppendDevice(context.description());
    report::TerminalStyle style = report::DetectTerminalStyle(stdout);
    std::vector<results::ResultRow> done;  // a resumed run's rows: counted, and its bests
    for (const auto& [id, row] : journal.rows()) done.push_back(row);
    report::SweepLines lines(out, style, CountRows(plan), done);
    const sweeps::WorkerEnd end =
        sweeps::RunSweepRows(context, plan, journal,
                             {.budget_s = options.budget_min * 60,
                              .samples = options.samples.value_or(kSweepSamples),
                              .pass_ms = options.pass_ms,
                              .warmup_ms = options.warmup_ms,
                              .use_timestamps = !options.no_timestamps,
                              .stop_requested = [] { return InterruptHandling::StopRequested(); }},
                             &lines);
    switch (end) {
      case sweeps::WorkerEnd::kDone:
        return kExitOk;
      case sweeps::WorkerEnd::kInterrupted:
        return kExitInterrupted;
      case sweeps::WorkerEnd::kDeviceLost:
        return kWorkerDeviceLost;
      case sweeps::WorkerEnd::kHung:
        return kWorkerHung;
      case sweeps::WorkerEnd::kNewDevice:
        return kWorkerNewDevice;
    }
  } catch (const UsageError& error) {
    std::cerr << "refract: " << error.what() << "\n";
    return kExitUsage;
  } catch (const EnvironmentError& error) {
    std::cerr << "refract: " << error.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& error) {
    std::cerr << "refract: error: " << error.what() << "\n";
    return kExitRowsFailed;
  }
  return kExitRowsFailed;
}

}  // namespace

std::string Joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ",") + name;
  return text;
}

/// The seed a journal at `path` was started with, to resume it without --seed.
std::optional<uint64_t> JournalSeed(const std::string& path) {
  const profile::document::FileText file = profile::document::ReadFile(path);
  if (!file.problem.empty()) return std::nullopt;  // Resume then names what is wrong
  try {
    const nlohmann::json entry = nlohmann::json::parse(file.text.substr(0, file.text.find('\n')));
    return entry.at("identity").at("seed").get<uint64_t>();
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // Resume then names what is wrong with the file
  }
}

void AddSweepRunOptions(CLI::App& command, SweepRunOptions& options) {
  command.add_flag("--quick", options.quick, "Each grid's quick values, smaller problems");
  CheckFiniteWithin(
      command.add_option("--budget", options.budget_min,
                         "Minutes each sweep may take; the rest of its grid is recorded as not "
                         "run (0: no limit)"),
      0.0, 1e6);
  command.add_flag("--resume", options.resume,
                   "Go on with the journal of a sweep that did not finish");
  CheckFileName(command.add_option("--journal", options.journal_path, "The journal file"))
      ->capture_default_str();
  CheckFileName(command.add_option("--profile", options.profile_path,
                     "Add the winners to this profile store (this adapter's swept problems "
                     "replaced where this run timed every configuration their winners were "
                     "chosen from, everything else kept; docs/PROFILES.md)"));
  command.add_flag("--replace", options.replace,
                   "With --profile: replace the store's entries of the swept problems even when "
                   "this run timed fewer of their configurations (--filter, a smaller grid)");
  command.add_flag("--list", options.list, "List the configurations and exit");
  command
      .add_option("--filter", options.filters,
                  "Only the configurations whose id matches a GLOB[,GLOB...] (see --list)")
      ->delimiter(',');
  CheckFiniteWithin(command
                        .add_option("--pass-ms", options.pass_ms,
                                    "A sample's pass of back-to-back dispatches [ms]")
                        ->capture_default_str(),
                    0.01, 10000.0);
  CheckFiniteWithin(command
                        .add_option("--warmup-ms", options.warmup_ms,
                                    "Passes run and discarded before the samples [ms]")
                        ->capture_default_str(),
                    0.0, 100000.0);
  AddCommonOptions(command, options);
}

bool ListOnly(const std::vector<sweeps::Sweep>& plan, const SweepRunOptions& options,
              std::ostream& out) {
  if (!options.list) return false;
  for (const sweeps::Sweep& sweep : plan) {
    for (const auto& row : sweep.rows) out << row->info().id << "\n";
  }
  return true;
}

int RunPlan(std::vector<sweeps::Sweep>& plan, const SweepRunOptions& options,
            const std::string& command, const nlohmann::json& identity,
            std::map<std::string, std::string> described, uint64_t seed,
            std::vector<std::string> inputs, std::ostream& out) {
  inputs.push_back(options.journal_path);
  CheckOutputPaths({options.json_path, options.reports.html_path, options.reports.csv_path,
                    options.reports.markdown_path, options.profile_path},
                   inputs);
  // A store that is there but is no store stops the run now, not after the sweep (exit 2).
  if (!options.profile_path.empty()) ReadStoreOrEmpty(options.profile_path);
  tune::SweepJournal journal = options.resume
                                   ? tune::SweepJournal::Resume(options.journal_path, identity)
                                   : tune::SweepJournal::Create(options.journal_path, identity);
  described.insert({{"quick", options.quick ? "true" : "false"},
                    {"budget_min", fmt::format("{:g}", options.budget_min)},
                    {"journal", options.journal_path},
                    {"adapter", options.gpu.adapter},
                    {"timeout_s", fmt::format("{:g}", options.gpu.timeout_s)},
                    {"samples", std::to_string(options.samples.value_or(kSweepSamples))},
                    {"timestamps", options.no_timestamps ? "off" : "on"},
                    {"pass_ms", fmt::format("{:g}", options.pass_ms)},
                    {"warmup_ms", fmt::format("{:g}", options.warmup_ms)}});
  if (!options.filters.empty()) described["filter"] = Joined(options.filters);
  if (!options.profile_path.empty()) described["profile"] = options.profile_path;
  for (const sweeps::Sweep& sweep : plan)
    described["seed_default " + sweep.name] = sweep.seed_default;
  bench::RunSession session(command, described, seed);
  const bool json_to_stdout =
      options.json_path == "-" || options.profile_path == "-" || options.reports.AnyToStdout();
  std::ostream& lines = json_to_stdout ? std::cerr : out;
  lines << fmt::format("refract {}: {} configurations ({} in the journal {}), seed {}\n", command,
                       CountRows(plan), journal.rows().size(), options.journal_path, seed);

  InterruptHandling interrupts;
  WorkerProcess worker([&] { return RunWorker(options, plan, journal, lines); },
                       [] { return InterruptHandling::StopRequested(); });
  // A worker that died is blamed for the configuration it was running.
  const auto blame = [&](const std::string& id,
                         const std::string& how) -> std::optional<tune::BlamedRow> {
    for (const sweeps::Sweep& sweep : plan) {
      for (const auto& row : sweep.rows) {
        if (row->info().id != id) continue;
        results::ResultRow failed{.id = id,
                                  .category = row->info().category,
                                  .params = bench::RowParams(row->info()),
                                  .status = results::RowStatus::kError,
                                  .description = row->info().description,
                                  .unit = row->info().unit};
        failed.message = "the sweep worker died running this configuration (" + how + ")";
        return tune::BlamedRow{.row = std::move(failed), .sweep = sweep.name};
      }
    }
    return std::nullopt;
  };
  const tune::SupervisedEnd end = tune::Supervise(
      worker, journal, blame, [] { return InterruptHandling::StopRequested(); }, lines);
  const std::string not_run = end.why.empty() ? std::string(sweeps::kNotRunMessage)
                                              : std::string(sweeps::kNotRunMessage) + ": " +
                                                    end.why;
  int worker_code = kExitOk;
  switch (end.kind) {
    case tune::SupervisedEnd::Kind::kComplete:
      break;
    case tune::SupervisedEnd::Kind::kInterrupted:
      worker_code = kExitInterrupted;
      break;
    case tune::SupervisedEnd::Kind::kWorkerFailed:
      worker_code = end.exit_code;
      break;
    case tune::SupervisedEnd::Kind::kStalled:
      worker_code = kExitRowsFailed;
      break;
  }

  if (!journal.device()) {
    // No worker ever had a device (no such adapter, …): nothing was measured, so no document is
    // written, and a journal this run began holds nothing to resume.
    if (!options.resume) std::filesystem::remove(options.journal_path);
    lines << "nothing ran: no sweep worker got a device; no results written\n";
    return worker_code != kExitOk ? worker_code : kExitRowsFailed;
  }

  // The document: every configuration, reviewed.
  const double budget_s = options.budget_min * 60;
  std::vector<results::ResultRow> rows = sweeps::ResultRowsOf(plan, journal, budget_s, not_run);
  sweeps::SweepReview review = sweeps::ReviewSweepRows(rows, sweeps::ReadingsOf(plan));
  results::Summary summary = review.summary;
  for (const sweeps::Sweep& sweep : plan) {  // wall time, summed over its configurations
    if (const double seconds = journal.SecondsOf(sweep.name); seconds > 0) {
      summary[sweep.name + ": seconds"] = seconds;
    }
  }
  const DeviceDescription device = journal.device().value_or(DeviceDescription{});
  const results::RunRecord& record = session.Finish(device, std::move(rows), std::move(summary));
  report::RenderSweepSummary(lines, record, report::DetectTerminalStyle(stdout));
  if (!options.json_path.empty()) {
    {
      OutputWriting writing;
      results::WriteOutput(options.json_path, results::ToJson(record).dump(2) + "\n", out);
    }
    if (options.json_path != "-") lines << "results written to " << options.json_path << "\n";
  }
  {
    OutputWriting writing;
    WriteReports(options.reports, {{RunLabel(options.json_path, command), record}}, out, lines);
  }
  if (!options.profile_path.empty()) {
    OutputWriting writing;
    AddSweepToStore(options.profile_path, record, review, options.replace, out, lines);
  }
  const bool complete =
      std::all_of(record.rows.begin(), record.rows.end(),
                  [](const results::ResultRow& row) { return !sweeps::DidNotRun(row); });
  if (worker_code == kExitOk && complete) {
    std::filesystem::remove(options.journal_path);  // every configuration is in the document
  } else {
    lines << "the journal " << options.journal_path << " keeps what ran: --resume goes on\n";
  }
  if (worker_code != kExitOk) return worker_code;
  const bool any_error = std::any_of(
      record.rows.begin(), record.rows.end(),
      [](const results::ResultRow& row) { return row.status == results::RowStatus::kError; });
  return any_error ? kExitRowsFailed : kExitOk;
}

}  // namespace refract::cli
