#include "bench/runner.h"

#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "base/error.h"
#include "bench/pass_timer.h"
#include "bench/row_fill.h"
#include "kernels/embedded_kernels.h"
#include "measure/steady_clock.h"

namespace refract::bench {
namespace {

results::ResultRow BaseRow(const Benchmark& benchmark) {
  results::ResultRow row;
  const BenchmarkInfo& info = benchmark.info();
  row.id = info.id;
  row.category = info.category;
  row.params = RowParams(info);
  row.unit = info.unit;
  row.description = info.description;
  return row;
}

/// Forwards the scheduler's progress to the run observer as result rows.
class ProgressForwarder final : public measure::SchedulerObserver {
 public:
  ProgressForwarder(std::vector<results::ResultRow>& rows, std::vector<size_t> row_of_workload,
                    std::vector<uint32_t> invocations, results::RunObserver* observer)
      : rows_(rows),
        row_of_workload_(std::move(row_of_workload)),
        invocations_(std::move(invocations)),
        observer_(observer) {}

  void OnSample(size_t index, const measure::WorkloadOutcome& so_far) override {
    Forward(index, so_far);
  }
  void OnSettled(size_t index, const measure::WorkloadOutcome& outcome) override {
    Forward(index, outcome);
  }
  void OnRoundDone(uint32_t round, size_t settled, size_t total, double eta_s) override {
    if (observer_) {
      observer_->OnProgress(static_cast<int>(round), static_cast<int>(settled),
                            static_cast<int>(total), eta_s);
    }
  }

 private:
  void Forward(size_t index, const measure::WorkloadOutcome& outcome) {
    results::ResultRow& row = rows_[row_of_workload_[index]];
    FillRow(row, outcome, invocations_[index]);
    if (observer_) observer_->OnRow(row);
  }

  std::vector<results::ResultRow>& rows_;
  std::vector<size_t> row_of_workload_;
  std::vector<uint32_t> invocations_;
  results::RunObserver* observer_;
};

// A row that ran a kernel from REFRACT_KERNEL_DIR says which, from where, with its hash: a
// variant's figures must not pass for the embedded kernel's.
void NameReplacedKernels(results::ResultRow& row) {
  std::string text;
  for (const wgsl::ReplacedKernel& kernel : wgsl::TakeReplacementsUsed()) {
    text += (text.empty() ? "" : "; ") + kernel.name + " from " + kernel.path + " (sha256 " +
            kernel.sha256 + ")";
  }
  if (!text.empty()) row.params["replaced_kernels"] = text;
}

void Report(results::RunObserver* observer, const results::ResultRow& row) {
  if (observer) observer->OnRow(row);
}

/// For measurements of the harness only: with REFRACT_INJECT_IDLE_MS=<ms> the GPU is left idle
/// that long between the rows' verification and their timing (as a slow CPU check leaves it).
/// Unset: 0. A value that is not a whole number of milliseconds (at most an hour) throws
/// UsageError naming it, before any row runs.
std::chrono::milliseconds IdleToInject() {
  const char* text = std::getenv("REFRACT_INJECT_IDLE_MS");
  if (text == nullptr) return std::chrono::milliseconds(0);
  const std::string_view value(text);
  uint32_t ms = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), ms);
  if (value.empty() || error != std::errc() || end != value.data() + value.size() ||
      ms > 3'600'000) {
    throw UsageError("REFRACT_INJECT_IDLE_MS=" + std::string(value) +
                     ": not a whole number of milliseconds from 0 to 3600000");
  }
  return std::chrono::milliseconds(ms);
}

/// Diagnostics: with REFRACT_TRACE_PHASES set, each phase's wall time goes to stderr (where a
/// sweep's or a suite's seconds go: preparing, verifying or timing).
class PhaseTrace {
 public:
  PhaseTrace() : on_(std::getenv("REFRACT_TRACE_PHASES") != nullptr) {}
  void Mark() { last_ = Clock::now(); }
  void Say(std::string_view phase, std::string_view id) {
    if (!on_) return;
    const Clock::time_point now = Clock::now();
    fmt::print(stderr, "phase {} {}: {:.3f} s\n", phase, id,
               std::chrono::duration<double>(now - last_).count());
    last_ = now;
  }

 private:
  using Clock = std::chrono::steady_clock;
  bool on_;
  Clock::time_point last_ = Clock::now();
};

}  // namespace

std::vector<results::ResultRow> RunBenchmarks(gpu::Context& context,
                                              std::span<Benchmark* const> benchmarks,
                                              const RunOptions& options,
                                              results::RunObserver* observer) {
  std::vector<results::ResultRow> rows;
  std::vector<measure::Workload*> workloads;
  std::vector<size_t> row_of_workload;
  std::vector<uint32_t> invocations;
  const auto& stop_requested = options.scheduler.stop_requested;
  std::string lost_device;  // why rows can no longer run: the device was lost or hung
  PhaseTrace trace;
  const std::chrono::milliseconds idle = IdleToInject();
  for (size_t index = 0; index < benchmarks.size(); ++index) {
    Benchmark& benchmark = *benchmarks[index];
    rows.push_back(BaseRow(benchmark));
    results::ResultRow& row = rows.back();
    if (!lost_device.empty()) {
      row.status = results::RowStatus::kError;
      row.message = lost_device;
      Report(observer, row);
      continue;
    }
    if (stop_requested && stop_requested()) {
      row.status = results::RowStatus::kSkipped;
      row.message = std::string(measure::kInterruptedMessage);
      Report(observer, row);
      continue;
    }
    if (std::optional<std::string> missing = benchmark.MissingRequirement(context)) {
      row.status = results::RowStatus::kSkipped;
      row.message = *missing;
      Report(observer, row);
      continue;
    }
    try {
      wgsl::TakeReplacementsUsed();  // forget the previous rows'
      trace.Mark();
      benchmark.Prepare(context);
      trace.Say("prepare", row.id);
      row.verification = benchmark.Verify(context);  // a wrong kernel is never timed
      trace.Say("verify", row.id);
      row.params = RowParams(benchmark.info());  // Prepare may have sized the problem for the device
      NameReplacedKernels(row);
      benchmark.Describe(row);
      workloads.push_back(&benchmark);
      row_of_workload.push_back(index);
      invocations.push_back(std::max(benchmark.InvocationsPerDispatch(), 1u));
    } catch (const DeviceHungError& error) {
      lost_device = kNotRunAfterHang;
      row.status = results::RowStatus::kError;
      row.message = error.what();
    } catch (const DeviceLostError& error) {
      lost_device = error.what();
      row.status = results::RowStatus::kError;
      row.message = lost_device;
    } catch (const VerificationError& error) {
      row.status = results::RowStatus::kError;
      row.message = error.what();
      if (error.record()) row.verification = *error.record();  // what disagreed, and how much
      row.params = RowParams(benchmark.info());
      NameReplacedKernels(row);  // a planted or variant kernel is named on its error row too
      benchmark.Release();
    } catch (const Error& error) {
      row.status = results::RowStatus::kError;
      row.message = error.what();
      row.params = RowParams(benchmark.info());
      NameReplacedKernels(row);
      benchmark.Release();
    }
    Report(observer, row);
  }

  if (!lost_device.empty()) {
    // Verified rows cannot be measured on a lost or hung device.
    for (size_t index : row_of_workload) {
      rows[index].status = results::RowStatus::kError;
      rows[index].message = lost_device;
      Report(observer, rows[index]);
    }
  } else if (!workloads.empty()) {
    const bool timestamps =
        options.use_timestamps && context.HasFeature(gpu::Feature::kTimestampQuery);
    PassTimer timer(context, timestamps);
    measure::SteadyClock clock;
    if (idle.count() > 0) std::this_thread::sleep_for(idle);
    trace.Mark();
    ProgressForwarder forwarder(rows, row_of_workload, invocations, observer);
    std::vector<measure::WorkloadOutcome> outcomes = measure::RunSchedule(
        workloads, timer, clock, options.scheduler, options.calibration, &forwarder);
    for (size_t i = 0; i < outcomes.size(); ++i) {
      FillRow(rows[row_of_workload[i]], outcomes[i], invocations[i]);
    }
    trace.Say("time", rows[row_of_workload.front()].id + (workloads.size() > 1 ? " .." : ""));
  }
  trace.Mark();
  for (Benchmark* benchmark : benchmarks) benchmark->Release();
  if (!rows.empty()) trace.Say("release", rows.front().id + (rows.size() > 1 ? " .." : ""));
  return rows;
}

}  // namespace refract::bench
