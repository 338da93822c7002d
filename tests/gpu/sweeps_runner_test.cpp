// The sweep runner's device rule on lavapipe: a sweep marked fresh_device_per_problem hands
// its worker back after each problem (WorkerEnd::kNewDevice), having run that problem whole, and
// the next call goes on with the next problem; other sweeps run through on one device. And which
// rows the long-pass rule times again, on hand-made rows.
#include <gtest/gtest.h>

#include <set>

#include "suites/sweeps/sweep_runner.h"
#include "testing/scratch_folder.h"
#include "testing/shared_context.h"

namespace refract::suites::sweeps {
namespace {

/// The quick q4-gemv sweep cut to two configurations of each of its first two problems.
std::vector<Sweep> TwoProblems(bool fresh_device_per_problem) {
  std::vector<Sweep> sweeps = MakeSweeps({.sweeps = {"q4-gemv"}, .quick = true, .seed = 3});
  Sweep& sweep = sweeps.front();
  EXPECT_TRUE(sweep.fresh_device_per_problem);  // the catalog marks q4-gemv
  sweep.fresh_device_per_problem = fresh_device_per_problem;
  std::vector<std::unique_ptr<kernels::KernelBenchmark>> kept;
  std::map<std::string, int> per_category;
  for (auto& row : sweep.rows) {
    const std::string category = row->info().category;
    if (per_category.size() == 2 && !per_category.contains(category)) continue;
    if (per_category[category]++ < 2) kept.push_back(std::move(row));
  }
  sweep.rows = std::move(kept);
  return sweeps;
}

std::set<std::string> CategoriesIn(const tune::SweepJournal& journal) {
  std::set<std::string> categories;
  for (const auto& [id, row] : journal.rows()) categories.insert(row.category);
  return categories;
}

const SweepRunLimits kQuick = {.samples = 2, .pass_ms = 1, .warmup_ms = 1};

TEST(SweepRunner, AFreshDevicePerProblemSweepEndsItsWorkerAfterEachProblem) {
  testing::ScratchFolder folder("runner");
  std::vector<Sweep> sweeps = TwoProblems(true);
  tune::SweepJournal journal =
      tune::SweepJournal::Create((folder.path() / "journal").string(), {{"run", "test"}});
  EXPECT_EQ(RunSweepRows(testing::SharedContext(), sweeps, journal, kQuick, nullptr),
            WorkerEnd::kNewDevice);
  EXPECT_EQ(journal.rows().size(), 2u);  // the first problem, whole
  EXPECT_EQ(CategoriesIn(journal).size(), 1u);
  std::vector<Sweep> again = TwoProblems(true);  // a new worker plans the sweep again
  EXPECT_EQ(RunSweepRows(testing::SharedContext(), again, journal, kQuick, nullptr),
            WorkerEnd::kDone);
  EXPECT_EQ(journal.rows().size(), 4u);
  EXPECT_EQ(CategoriesIn(journal).size(), 2u);
}

TEST(SweepRunner, OtherSweepsRunThroughOnOneDevice) {
  testing::ScratchFolder folder("runner");
  std::vector<Sweep> sweeps = TwoProblems(false);
  tune::SweepJournal journal =
      tune::SweepJournal::Create((folder.path() / "journal").string(), {{"run", "test"}});
  EXPECT_EQ(RunSweepRows(testing::SharedContext(), sweeps, journal, kQuick, nullptr),
            WorkerEnd::kDone);
  EXPECT_EQ(journal.rows().size(), 4u);
}

/// A measured row of `copies` copies (cold when more than one), `median_ms` a dispatch.
results::ResultRow TimedRow(int64_t copies, double median_ms) {
  results::ResultRow row{.id = "kernel:gate-up-down/qwen2.5-0.5b/t1/tuned/default",
                         .status = results::RowStatus::kOk};
  row.params = {{"copies", copies}, {"cold", std::string(copies > 1 ? "true" : "false")}};
  row.stats.median = median_ms;
  return row;
}

TEST(SweepRunner, TheLongPassRuleTakesOneCopyRowsOfAKernelSweepOnAGpuOnly) {
  const results::ResultRow one = TimedRow(1, 0.035), rotated = TimedRow(8, 0.035);
  EXPECT_TRUE(NeedsLongPasses(rotated, 2, false));
  EXPECT_FALSE(NeedsLongPasses(one, 2, false));
  EXPECT_TRUE(NeedsLongPasses(one, 2, true));
  EXPECT_FALSE(NeedsLongPasses(TimedRow(1, 0.019), 2, true));  // under kLongDispatchMs
  EXPECT_FALSE(NeedsLongPasses(one, kLongPassMs, true));       // already long passes
  results::ResultRow failed = one;
  failed.status = results::RowStatus::kError;
  EXPECT_FALSE(NeedsLongPasses(failed, 2, true));

  DeviceLimits gpu, cpu;
  cpu.cpu = true;
  const Sweep kernel_sweep{.name = "kernel:gate-up-down"}, own_sweep{.name = "q4-gemv"};
  EXPECT_TRUE(LongPassesAtAnyCopies(kernel_sweep, gpu));
  EXPECT_FALSE(LongPassesAtAnyCopies(kernel_sweep, cpu));
  EXPECT_FALSE(LongPassesAtAnyCopies(own_sweep, gpu));
}

}  // namespace
}  // namespace refract::suites::sweeps
