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

std::vector<ops::Settings> GemvRowSumSettings() {
  const DeviceLimits& limits = SharedContext().limits();
  std::vector<ops::Settings> settings = {{{"tpr", 8}, {"subgroups", 0}}};
  if (limits.subgroups && limits.subgroup_min_size >= 8) {
    settings.push_back({{"tpr", 8}, {"subgroups", 1}});
  }
  return settings;
}

}  // namespace refract::testing
