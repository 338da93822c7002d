// A run session: everything a suite command does between parsing its flags and printing —
// the run's record (tool, Dawn, command, options, seed, device, start and end times), the
// benchmarks run by the shared runner, the suite's review and summary.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "bench/benchmark.h"
#include "bench/runner.h"
#include "bench/suite_rules.h"
#include "gpu/context.h"
#include "results/run_observer.h"
#include "results/run_record.h"

namespace refract::bench {

class RunSession {
 public:
  /// Starts the record now: tool and Dawn versions, `command`, `options` (as the user gave
  /// them, for the record), `seed` and the start time.
  RunSession(std::string command, std::map<std::string, std::string> options, uint64_t seed);

  /// Runs `stages` on `context` one after the other with the session's seed (RunBenchmarks
  /// each: the rows of a stage are measured to the end before the next stage starts, e.g. the
  /// ceilings a kernels run's roofline stands on), then fills the record: the device, every
  /// stage's rows in order, reviewed by rules.Review, rules.Summarize, the end and wall times.
  /// Call once.
  const results::RunRecord& Run(gpu::Context& context,
                                const std::vector<std::vector<Benchmark*>>& stages,
                                RunOptions options, const SuiteRules& rules,
                                results::RunObserver* observer);

  /// Fills the record from rows measured elsewhere (a sweep's journal): the device, the rows in
  /// order, the summary, the end and wall times. Call once, instead of Run.
  const results::RunRecord& Finish(const DeviceDescription& device,
                                   std::vector<results::ResultRow> rows, results::Summary summary);
  const results::RunRecord& record() const { return record_; }

 private:
  results::RunRecord record_;
  double start_s_;  ///< steady clock at construction [s]
};

/// The current UTC time as ISO-8601, e.g. "2026-11-30T12:00:00Z".
std::string IsoUtcNow();

}  // namespace refract::bench
