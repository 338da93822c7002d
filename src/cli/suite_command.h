// What every suite command (ceilings, kernels, smoke, …) shares between its flags and its
// exit code: the output and harness flags, the run session, the live and final tables, the
// JSON document and the report files (HTML, CSV, markdown). A suite command only adds its own
// flags and builds its benchmarks.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/benchmark.h"
#include "bench/runner.h"
#include "bench/suite_rules.h"
#include "cli/gpu_options.h"
#include "cli/report_outputs.h"

namespace refract::cli {

/// The flags of every command that runs rows on the GPU (ceilings, kernels, smoke, sweep), each
/// meaning the same in all of them, declared once by AddCommonOptions.
struct CommonOptions {
  GpuOptions gpu;
  std::string json_path;  ///< "" = none, "-" = standard output
  ReportOutputs reports;  ///< --html, --csv, --markdown
  /// The run's seed: its random inputs and the order its rows are measured in derive from it;
  /// nothing: a random one, recorded.
  std::optional<uint64_t> seed;
  bool no_live = false;        ///< plain lines instead of a live table
  bool no_timestamps = false;  ///< time with the wall clock only
  /// Exactly this many samples a row (1 to 10,000), reported by their median and p10-p90;
  /// nothing: the command's own rule (the suites' best-of-N, a sweep's 25).
  std::optional<uint32_t> samples;
};

/// Adds the GPU flags, --json, --html, --csv, --markdown, --seed, --no-live, --no-timestamps and
/// (unless `samples` is false: a command that counts its samples otherwise) --samples to
/// `command`.
void AddCommonOptions(CLI::App& command, CommonOptions& options, bool samples = true);

/// The seed a run uses: `options.seed`, or a random one.
uint64_t RunSeed(const CommonOptions& options);

/// Flags every suite command takes: the common ones and the harness knobs.
struct SuiteOptions : CommonOptions {
  bench::RunOptions run;  ///< the harness knobs
};

/// Adds the common flags and the harness knobs (--min-rounds, --max-rounds, --stable-rounds,
/// --tolerance, --throttle-factor, --idle-gap-ms, --cooldown-ms, --max-cooldowns, --dispatch-ms,
/// --batch-ms, --max-dispatches). Their defaults are the values `options` holds (webgpu-bench's
/// unless a suite changed them).
void AddSuiteOptions(CLI::App& command, SuiteOptions& options);

/// What one suite command runs.
struct SuiteRun {
  std::string command;        ///< "ceilings"
  std::string summary_title;  ///< the final table's title for the summary block
  /// The suite's own options for the record (the shared ones are added by RunSuite).
  std::map<std::string, std::string> options;
  const bench::SuiteRules* rules = nullptr;  ///< nullptr: no rules
  /// The first `leading` benchmarks are measured to the end before the others start (the
  /// ceilings a kernels run's roofline stands on); 0: all together.
  size_t leading = 0;
  /// Called with the device once the context exists, before any benchmark runs; throws
  /// UsageError to refuse it (e.g. --ceilings measured on another adapter). May be empty.
  std::function<void(const DeviceDescription&)> check_device;
  /// Called after check_device with the context and the benchmarks, before any runs: may replace
  /// benchmarks (kernels' --profile rebuilds tuned rows with the profile's winners, compiling
  /// each once to learn its kernel files). May be empty.
  std::function<void(gpu::Context&, std::vector<std::unique_ptr<bench::Benchmark>>&)> adapt_rows;
  /// Files the run reads (kernels' --ceilings): no output may lead to one of them.
  std::vector<std::string> inputs;
};

/// Runs `benchmarks` as one session (seeded by `options.seed`, which the caller settles first
/// when its rows' inputs derive from it): checks that the outputs can be written (OutputError
/// before any work; at most one of them may be "-"), creates the context, shows a live table
/// (in place on a TTY, plain lines otherwise or with --no-live; on standard error when an
/// output goes to standard output), prints the final table and writes the JSON document and the
/// reports asked for (results::WriteOutput; "results written to" only once a write succeeded).
/// SIGINT and SIGTERM stop the run after the current measurement (InterruptHandling). Returns
/// kExitTimeout when a kernel hung the device (the rows so far are written; the process must
/// then end at once, see gpu::AnyContextHung), else kExitInterrupted after a signal, else
/// kExitRowsFailed when a row failed, else kExitOk.
int RunSuite(const SuiteOptions& options, const SuiteRun& run,
             std::vector<std::unique_ptr<bench::Benchmark>>& benchmarks, std::ostream& out);

/// Prints `benchmarks` as --list does: id, category, unit, needs, description.
void PrintBenchmarkList(std::ostream& out,
                        const std::vector<std::unique_ptr<bench::Benchmark>>& benchmarks);

}  // namespace refract::cli
