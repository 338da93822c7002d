#include "testing/kernel_row.h"

#include "base/error.h"
#include "testing/shared_context.h"

namespace refract::testing {

RowRun RunRow(suites::kernels::KernelBenchmark& row, gpu::Context& context) {
  if (auto missing = row.MissingRequirement(context)) {
    throw UsageError(row.info().id + " is skipped: " + *missing);
  }
  row.Prepare(context);
  RowRun run{row.Verify(context), row.info().params};
  context.RunPass(row.Dispatches(), 1, false);
  row.Release();
  return run;
}

RowRun RunRow(suites::kernels::KernelBenchmark& row) { return RunRow(row, SharedContext()); }

}  // namespace refract::testing
