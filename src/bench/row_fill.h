// Turning the engine's outcome of a benchmark into its results row.
#pragma once

#include <cstdint>

#include "measure/workload_outcome.h"
#include "results/run_record.h"

namespace refract::bench {

/// Copies `outcome` into `row` (status, samples, statistics, timing, linearity, flags and their
/// reasons). A benchmark whose one engine "dispatch" holds `invocations` kernel dispatches has
/// its times divided and its dispatch counts multiplied by `invocations`, so that the row is
/// per kernel dispatch; its metric, a rate, is unchanged.
void FillRow(results::ResultRow& row, const measure::WorkloadOutcome& outcome,
             uint32_t invocations);

/// The engine's statistics as a row holds them, every field (a time) multiplied by `scale`.
results::Statistics ResultStatistics(const measure::Statistics& stats, double scale = 1);

}  // namespace refract::bench
