// refract smoke: one verified, timed computation, to prove the machine can run refract. A
// suite of one row on the shared core: the rows and this file are all it takes.
#include "cli/commands.h"
#include "cli/number_checks.h"
#include "cli/suite_command.h"
#include "suites/smoke/smoke_benchmark.h"

namespace refract::cli {

Registered RegisterSmoke(CLI::App& app) {
  struct Options {
    SuiteOptions suite;
    uint32_t elements = 4u << 20;
  };
  auto options = std::make_shared<Options>();
  // Quick by default: a fixed five samples, no pauses.
  options->suite.run.scheduler.stopping.kind = measure::StoppingKind::kFixedCount;
  options->suite.run.scheduler.stopping.samples = 5;
  options->suite.run.scheduler.idle_gap_ms = 0;
  CLI::App* command = app.add_subcommand(
      "smoke", "Run one small kernel on the GPU, check it against the CPU, print its time");
  CheckWholeWithin(command->add_option("--elements", options->elements, "Number of f32 elements")
                       ->capture_default_str(),
                   1, 1u << 28);
  AddSuiteOptions(*command, options->suite);
  Action action = [options](std::ostream& out, std::ostream&) {
    std::vector<std::unique_ptr<bench::Benchmark>> rows;
    rows.push_back(std::make_unique<suites::smoke::SmokeBenchmark>(options->elements));
    SuiteRun run{.command = "smoke", .options = {{"elements", std::to_string(options->elements)}}};
    return RunSuite(options->suite, run, rows, out);
  };
  return {command, action};
}

}  // namespace refract::cli
