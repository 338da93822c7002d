// Running one kernels-suite row in a test as the suite runs it, without timing it.
#pragma once

#include <vector>

#include "base/verification.h"
#include "gpu/context.h"
#include "ops/axis.h"
#include "results/params.h"
#include "suites/kernels/kernel_benchmark.h"

namespace refract::testing {

/// What one run of a row gave: its verification and its params after Prepare.
struct RowRun {
  VerificationRecord record;
  results::Params params;
};

/// Throws UsageError with the reason when the row would be skipped on `context`'s device;
/// else Prepare, Verify (whose VerificationError propagates), one pass over the timed
/// dispatches, Release.
RowRun RunRow(suites::kernels::KernelBenchmark& row, gpu::Context& context);
/// The same on the shared context.
RowRun RunRow(suites::kernels::KernelBenchmark& row);

/// A GEMV row's settings with its row sums through workgroup memory (subgroups 0) and, where
/// the shared context's smallest subgroup holds a row group of 8, through subgroup shuffles
/// (subgroups 1); tpr 8 in both.
std::vector<ops::Settings> GemvRowSumSettings();

}  // namespace refract::testing
