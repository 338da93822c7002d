#include "suites/sweeps/sweep_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>

#include "base/error.h"
#include "kernels/embedded_kernels.h"
#include "measure/workload_outcome.h"

namespace refract::suites::sweeps {
namespace {

double NowS() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// For tests only: with REFRACT_INJECT_SWEEP_CRASH=<row id> the worker aborts right after
/// journaling that row's begin, as a driver crash would end it.
void CrashIfAsked(const std::string& id) {
  const char* target = std::getenv("REFRACT_INJECT_SWEEP_CRASH");
  if (target != nullptr && id == target) std::abort();
}

/// The kernels `row` compiled and their hash, as params (a profile entry's stamp).
void StampKernels(results::ResultRow& row, const std::vector<std::string>& kernels) {
  if (kernels.empty()) return;
  std::string names;
  for (const std::string& name : kernels) names += (names.empty() ? "" : ",") + name;
  row.params[kKernelsParam] = names;
  row.params[kKernelHashParam] = wgsl::KernelsHash(kernels);
}

}  // namespace

bool NeedsLongPasses(const results::ResultRow& row, double pass_ms, bool any_copies) {
  const auto cold = row.params.find("cold");
  const auto copies = row.params.find("copies");
  const bool rotated = cold != row.params.end() && cold->second.IsText() &&
                       cold->second.AsText() == "true" && copies != row.params.end() &&
                       copies->second.IsInteger() && copies->second.AsInteger() > 1;
  return row.status == results::RowStatus::kOk && pass_ms < kLongPassMs &&
         (rotated || any_copies) && row.stats.median >= kLongDispatchMs;
}

bench::RunOptions SweepRunOptions(uint32_t samples, double pass_ms, double warmup_ms) {
  bench::RunOptions options;
  options.scheduler.stopping.kind = measure::StoppingKind::kFixedCount;
  options.scheduler.stopping.samples = samples;
  options.scheduler.idle_gap_ms = 0;
  options.calibration.batch_target_ms = 2 * pass_ms;  // sizing stops at half of it
  options.calibration.warmup_batches =
      std::max(2u, static_cast<uint32_t>(std::ceil(warmup_ms / pass_ms)));
  return options;
}

DeviceLimits WithDefaultComputeLimits(const DeviceLimits& limits) {
  const DeviceLimits defaults = WebGpuDefaultLimits();
  DeviceLimits within = limits;
  within.max_compute_workgroup_storage_size = std::min(limits.max_compute_workgroup_storage_size,
                                                       defaults.max_compute_workgroup_storage_size);
  within.max_compute_invocations_per_workgroup = std::min(
      limits.max_compute_invocations_per_workgroup, defaults.max_compute_invocations_per_workgroup);
  within.max_compute_workgroup_size_x =
      std::min(limits.max_compute_workgroup_size_x, defaults.max_compute_workgroup_size_x);
  return within;
}

WorkerEnd RunSweepRows(gpu::Context& context, std::vector<Sweep>& sweeps,
                       tune::SweepJournal& journal, const SweepRunLimits& limits,
                       results::RunObserver* observer) {
  bench::RunOptions options = SweepRunOptions(limits.samples, limits.pass_ms, limits.warmup_ms);
  options.use_timestamps = limits.use_timestamps;
  options.scheduler.stop_requested = limits.stop_requested;
  bench::RunOptions long_options = SweepRunOptions(limits.samples, kLongPassMs, limits.warmup_ms);
  long_options.use_timestamps = limits.use_timestamps;
  long_options.scheduler.stop_requested = limits.stop_requested;
  const DeviceLimits within_defaults = WithDefaultComputeLimits(context.limits());
  std::optional<std::string> last_category;  // of the last row this device ran
  // The problem (row category) whose last configuration took kLongDispatchMs or more a
  // dispatch in long passes: its next one (the same cold inputs) is timed in long passes from
  // the start instead of twice. Only the last row counts, so a problem whose configurations
  // range from fast to slow (the reduction's) times its fast ones in short passes.
  std::string long_streak;
  for (Sweep& sweep : sweeps) {
    for (std::unique_ptr<kernels::KernelBenchmark>& row : sweep.rows) {
      if (!row || journal.rows().contains(row->info().id)) continue;
      if (limits.stop_requested && limits.stop_requested()) return WorkerEnd::kInterrupted;
      if (limits.budget_s > 0 && journal.SecondsOf(sweep.name) >= limits.budget_s) break;
      if (sweep.fresh_device_per_problem && last_category &&
          *last_category != row->info().category) {
        return WorkerEnd::kNewDevice;
      }
      last_category = row->info().category;
      if (!row->CheckOn(context.limits()) && row->CheckOn(within_defaults)) {
        row->Rename(row->info().id, row->info().category,
                    {{kOverDefaultLimitsParam, *row->CheckOn(within_defaults)}});
      }
      const std::string id = row->info().id;
      journal.AppendBegin(id);
      CrashIfAsked(id);
      const double start = NowS();
      bench::Benchmark* const one[] = {row.get()};
      wgsl::TakeKernelsUsed();  // only this row's compiles count below
      const std::string problem = row->info().category;
      const bool long_from_start = limits.pass_ms < kLongPassMs && long_streak == problem;
      std::vector<results::ResultRow> done =
          bench::RunBenchmarks(context, one, long_from_start ? long_options : options, nullptr);
      bool timed_long = long_from_start;
      if (long_from_start) {
        done.front().params[kPassMsParam] = kLongPassMs;
        done.front().notes.push_back(fmt::format(
            "timed in {:g} ms passes from the start: the configuration before it of this "
            "problem took {:g} µs or more a dispatch",
            kLongPassMs, kLongDispatchMs * 1e3));
      } else if (NeedsLongPasses(done.front(), limits.pass_ms,
                                 LongPassesAtAnyCopies(sweep, context.limits()))) {
        timed_long = true;
        context.Settle();
        const double short_ms = done.front().stats.median;
        done = bench::RunBenchmarks(context, one, long_options, nullptr);
        done.front().params[kPassMsParam] = kLongPassMs;
        done.front().notes.push_back(fmt::format(
            "timed again in {:g} ms passes: a dispatch of {:.1f} µs in {:g} ms passes read "
            "{:.1f} µs",
            kLongPassMs, done.front().stats.median * 1e3, limits.pass_ms, short_ms * 1e3));
      }
      const bool long_dispatch = done.front().status == results::RowStatus::kOk &&
                                 done.front().stats.median >= kLongDispatchMs;
      long_streak = timed_long && long_dispatch ? problem : "";
      StampKernels(done.front(), wgsl::TakeKernelsUsed());
      if (observer) observer->OnRow(done.front());
      const double seconds = NowS() - start;
      row.reset();  // its GPU objects and inputs go now: a sweep holds one row's at a time
      results::ResultRow& result = done.front();
      result.roofline.reset();  // a sweep row is read against its peers, not the roofline
      if (result.status == results::RowStatus::kSkipped &&
          result.message == measure::kInterruptedMessage) {
        return WorkerEnd::kInterrupted;
      }
      journal.AppendRow(result, sweep.name, seconds);
      if (std::getenv("REFRACT_TRACE_PHASES") != nullptr) {  // bench/runner.cpp's diagnostics
        fmt::print(stderr, "phase row {}: {:.3f} s\n", id, seconds);
      }
      if (context.hung()) return WorkerEnd::kHung;
      if (context.lost()) return WorkerEnd::kDeviceLost;
      // Freed now, not while the next configuration is timed (on the H200 deferred frees of a
      // large row's copies slowed the next rows' passes up to 5x).
      try {
        context.Settle();
      } catch (const DeviceLostError&) {
        return context.hung() ? WorkerEnd::kHung : WorkerEnd::kDeviceLost;
      }
    }
  }
  return WorkerEnd::kDone;
}

std::vector<results::ResultRow> ResultRowsOf(const std::vector<Sweep>& plan,
                                             const tune::SweepJournal& journal, double budget_s,
                                             const std::string& not_run) {
  std::vector<results::ResultRow> rows;
  for (const Sweep& sweep : plan) {
    uint64_t finished = 0;
    for (const auto& row : sweep.rows) finished += journal.rows().contains(row->info().id);
    const bool cut = budget_s > 0 && journal.SecondsOf(sweep.name) >= budget_s;
    for (const auto& row : sweep.rows) {
      const bench::BenchmarkInfo& info = row->info();
      if (auto found = journal.rows().find(info.id); found != journal.rows().end()) {
        rows.push_back(found->second);
        continue;
      }
      results::ResultRow missing{.id = info.id,
                                 .category = info.category,
                                 .params = info.params,
                                 .status = results::RowStatus::kSkipped,
                                 .description = info.description,
                                 .unit = info.unit};
      missing.message = cut ? fmt::format(
                                  "{}: the sweep's budget of {:g} min was spent after {} of {} "
                                  "configurations",
                                  kNotRunMessage, budget_s / 60, finished, sweep.rows.size())
                            : not_run;
      rows.push_back(std::move(missing));
    }
  }
  return rows;
}

std::map<std::string, SweepReading> ReadingsOf(const std::vector<Sweep>& plan) {
  std::map<std::string, SweepReading> readings;
  for (const Sweep& sweep : plan) {
    readings[sweep.name] = {.main_axis = sweep.main_axis,
                            .cliff_threshold = sweep.cliff_threshold,
                            .has_winners = sweep.has_winners};
  }
  return readings;
}

}  // namespace refract::suites::sweeps
