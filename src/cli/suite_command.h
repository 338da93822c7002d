// What every suite command (ceilings, kernels, smoke, …) shares between its flags and its
// exit code: the output and harness flags, the run session, the live and final tables, the
// JSON document. A suite command only adds its own flags and builds its benchmarks.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
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

namespace refract::cli {

/// Flags every suite command takes.
struct SuiteOptions {
  GpuOptions gpu;
  std::string json_path;  ///< "" = none, "-" = standard output
  std::optional<uint64_t> seed;
  bool no_live = false;
  bool no_timestamps = false;
  bench::RunOptions run;  ///< the harness knobs
};

/// Adds --json, --seed, --no-live, --no-timestamps, the GPU flags and the harness knobs
/// (--min-rounds, --max-rounds, --stable-rounds, --tolerance, --samples, --throttle-factor,
/// --idle-gap-ms, --cooldown-ms, --max-cooldowns, --dispatch-ms, --batch-ms, --max-dispatches).
/// Their defaults are the values `options` holds (webgpu-bench's unless a suite changed them).
void AddSuiteOptions(CLI::App& command, SuiteOptions& options);

/// What one suite command runs.
struct SuiteRun {
  std::string command;        ///< "ceilings"
  std::string summary_title;  ///< the final table's title for the summary block
  /// The suite's own options for the record (the shared ones are added by RunSuite).
  std::map<std::string, std::string> options;
  const bench::SuiteRules* rules = nullptr;  ///< nullptr: no rules
};

/// Runs `benchmarks` as one session: checks that the JSON output can be written
/// (results::CheckOutputWritable: OutputError before any work), creates the context, shows a
/// live table (in place on a TTY, plain lines otherwise or with --no-live; on standard error
/// when the JSON goes to standard output), prints the final table and writes the JSON document
/// (results::WriteOutput; "results written to" is printed only once it succeeded, else
/// OutputError). Returns 0 when no row failed, 1 otherwise.
int RunSuite(const SuiteOptions& options, const SuiteRun& run,
             std::vector<std::unique_ptr<bench::Benchmark>>& benchmarks, std::ostream& out);

/// Prints `benchmarks` as --list does: id, category, unit, needs, description.
void PrintBenchmarkList(std::ostream& out,
                        const std::vector<std::unique_ptr<bench::Benchmark>>& benchmarks);

}  // namespace refract::cli
