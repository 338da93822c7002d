// Running a sweep's configurations (SWEEPS.md "Rules"): one row at a time through the shared
// runner (skip what the limits refuse, verify against the CPU model, only then time), each begun
// and finished in the journal, within each sweep's time budget. What the rows mean afterwards
// is sweep_review's.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bench/runner.h"
#include "gpu/context.h"
#include "results/run_observer.h"
#include "suites/sweeps/sweep_catalog.h"
#include "suites/sweeps/sweep_review.h"
#include "tune/sweep_journal.h"

namespace refract::suites::sweeps {

/// How a sweep samples (SWEEPS.md "Timing"): `samples` (25) after a warm-up, all kept, their
/// median and p10–p90; each one compute pass of back-to-back dispatches of about `pass_ms`
/// (batch sizing stops once a batch takes that long) [ms]; no idle gap between them; before
/// them at least `warmup_ms` of the configuration's own passes, discarded (at least two) [ms].
bench::RunOptions SweepRunOptions(uint32_t samples = 25, double pass_ms = 2, double warmup_ms = 20);

struct SweepRunLimits {
  /// Wall time each sweep may take, summed over its configurations in the journal [s]; 0: none.
  double budget_s = 0;
  uint32_t samples = 25;  ///< a configuration's (SweepRunOptions)
  double pass_ms = 2;     ///< a sample's pass (SweepRunOptions) [ms]
  double warmup_ms = 20;  ///< passes run and discarded first (SweepRunOptions) [ms]
  bool use_timestamps = true;  ///< false: time with the wall clock only (--no-timestamps)
  /// Asked before each configuration (and by the scheduler within one); true ends the run.
  std::function<bool()> stop_requested;
};

/// How RunSweepRows ended.
enum class WorkerEnd {
  kDone,         ///< every configuration has a row in the journal or was cut by a budget
  kInterrupted,  ///< a stop request
  kDeviceLost,   ///< the device was lost: the rest needs a new one
  kHung,         ///< the device hung (the process must end at once: gpu::AnyContextHung)
  kNewDevice,    ///< the next problem of a Sweep::fresh_device_per_problem sweep wants a new one
};

/// A cold row rotating through copies of its inputs whose dispatch takes kLongDispatchMs or more is
/// timed again in passes of kLongPassMs, and gets the param kPassMsParam: on the H200 the cold
/// LM head (28–63 µs a dispatch) read 2–4x slow, and differently from run to run, in 2 ms passes
/// of 8–16 dispatches; in 50 ms passes it reads as the kernels suite does
/// (docs/results/archive/NOTEBOOK.md, "The sweeps"). The configuration run next of the same problem
/// (the same cold inputs) is then timed in long passes from the start, with a note saying so,
/// instead of twice, for as long as each took kLongDispatchMs or more.
/// A kernel sweep's row (`sweep --kernel`) on a GPU is timed again so whatever its copies: on the
/// H100 (2026-12-07) the fused gate/up + down's default read 35.2 µs in 2 ms passes of one copy
/// and 7.3 µs in 50 ms passes (the kernels suite 7.5), and `decode --profile` with the 2 ms
/// sweep's winner ran 1,014 tokens/s against 1,600-1,619 by default (docs/SWEEPS.md).
inline constexpr double kLongDispatchMs = 0.02;
inline constexpr double kLongPassMs = 50;
inline constexpr const char* kPassMsParam = "pass_ms";

/// Whether `row`, timed in `pass_ms` passes, must be timed again in kLongPassMs passes: measured,
/// its dispatch at least kLongDispatchMs, in passes shorter than those, and rotating through
/// cold copies (more than one) or `any_copies` (LongPassesAtAnyCopies).
bool NeedsLongPasses(const results::ResultRow& row, double pass_ms, bool any_copies);

/// Whether `sweep`'s rows take the long-pass rule whatever their copies: a kernel sweep
/// ("kernel:<name>") on a GPU (not a CPU adapter, where no short-pass misreading was seen).
inline bool LongPassesAtAnyCopies(const Sweep& sweep, const DeviceLimits& limits) {
  return !limits.cpu && sweep.name.rfind("kernel:", 0) == 0;
}

/// The `over_default_limits` param a row gets when its configuration runs on this device but
/// not within WebGPU's default limits (16,384 bytes of workgroup memory, 256 invocations): the
/// reason, as the op's check words it.
inline constexpr const char* kOverDefaultLimitsParam = "over_default_limits";

/// The device's limits with the compute limits a browser's device gets by default in their
/// place (workgroup memory, invocations, workgroup size), features kept.
DeviceLimits WithDefaultComputeLimits(const DeviceLimits& limits);

/// Runs every row of `sweeps` the journal has no row for, in order, one RunBenchmarks each on
/// `context`: the journal gets a begin before and the row after (with its wall time), a row
/// whose configuration exceeds the default limits gets kOverDefaultLimitsParam. A sweep whose
/// journal time reached the budget runs no more rows. An interrupted row is not journaled.
/// `observer` sees every row as the runner reports it (may be null).
WorkerEnd RunSweepRows(gpu::Context& context, std::vector<Sweep>& sweeps,
                       tune::SweepJournal& journal, const SweepRunLimits& limits,
                       results::RunObserver* observer);

/// Every row of `plan`, in order: the journal's, or a `skipped` one saying why it did not run —
/// the budget of `budget_s` spent (and after how many of the sweep's configurations), else
/// `not_run`.
std::vector<results::ResultRow> ResultRowsOf(const std::vector<Sweep>& plan,
                                             const tune::SweepJournal& journal, double budget_s,
                                             const std::string& not_run);

/// How the review reads each sweep of `plan`.
std::map<std::string, SweepReading> ReadingsOf(const std::vector<Sweep>& plan);

}  // namespace refract::suites::sweeps
