// The generic runner every suite shares: requirement check, preparation, verification against
// the CPU model, then the measurement engine; one results row per benchmark.
#pragma once

#include <span>
#include <vector>

#include "bench/benchmark.h"
#include "gpu/context.h"
#include "measure/calibration.h"
#include "measure/scheduler.h"
#include "results/run_observer.h"
#include "results/run_record.h"

namespace refract::bench {

/// How a run measures: the engine's knobs and the timing method.
struct RunOptions {
  measure::SchedulerOptions scheduler;  ///< includes the stopping rule and the seed
  measure::CalibrationOptions calibration;
  /// Time with pass timestamps when the device has them (else wall clock only).
  bool use_timestamps = true;
};

/// Runs `benchmarks` on `context`. A benchmark the device cannot run is `skipped` with the
/// reason; one whose preparation or verification fails is `error` with the message and is
/// never timed; the rest are measured together by measure::RunSchedule. A lost device ends every
/// row not yet done as `error` with the loss; a hung one (DeviceHungError) ends the row that
/// hung with the watchdog's message and every row not yet done with kNotRunAfterHang. Once
/// options.scheduler.stop_requested answers true, every row not yet done is `skipped` with
/// measure::kInterruptedMessage (asked before each row's preparation, then by the scheduler
/// between measurements). Rows come back in the order given, times and work
/// per kernel dispatch (divided by InvocationsPerDispatch). `observer` may be null.
std::vector<results::ResultRow> RunBenchmarks(gpu::Context& context,
                                              std::span<Benchmark* const> benchmarks,
                                              const RunOptions& options,
                                              results::RunObserver* observer);

}  // namespace refract::bench
