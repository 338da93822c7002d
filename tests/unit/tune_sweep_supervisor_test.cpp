// The sweep supervisor's decisions with a scripted worker in place of a process: a worker that
// dies mid-configuration has that configuration failed and a new worker runs the rest; one that
// hangs or loses its device likewise; one that asks for a fresh device per problem is followed
// without blame; two in a row that end before any configuration end the run; an interrupt or a
// worker that failed for its own reason ends it at once.
#include "tune/sweep_supervisor.h"

#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <vector>

#include "testing/scratch_folder.h"

namespace refract::tune {
namespace {

using Kind = WorkerEnd::Kind;

results::ResultRow Row(const std::string& id) {
  results::ResultRow row{.id = id, .category = "reduction/sum", .status = results::RowStatus::kOk};
  row.times_ms = {1, 1, 1};
  row.stats = {.count = 3, .min = 1, .mean = 1, .median = 1, .stddev = 0, .ci95 = 0, .p10 = 1,
               .p90 = 1};
  row.statistic = "median";
  row.stop_reason = "sample-count";
  row.metric_value = 1;
  row.unit = "B/s";
  row.timing_method = "gpu-timestamp";
  row.work_per_dispatch = 1;
  row.dispatches_per_sample = 1;
  return row;
}

/// A worker as a script: each run appends to the journal what a process would, then ends as
/// its step says.
class ScriptedWorkers final : public WorkerLauncher {
 public:
  using Step = std::function<WorkerEnd(SweepJournal&)>;
  ScriptedWorkers(SweepJournal& journal, std::vector<Step> steps)
      : journal_(journal), steps_(std::move(steps)) {}

  WorkerEnd RunWorker() override {
    EXPECT_LT(runs_, steps_.size()) << "a worker more than the script has";
    if (runs_ >= steps_.size()) return {.kind = Kind::kDone};
    return steps_[runs_++](journal_);
  }
  size_t runs() const { return runs_; }

 private:
  SweepJournal& journal_;
  std::vector<Step> steps_;
  size_t runs_ = 0;
};

/// A step that finishes `ids`, begins `then` (when not empty) and ends as `end`.
ScriptedWorkers::Step Finishes(std::vector<std::string> ids, WorkerEnd end,
                               std::string then = "") {
  return [=](SweepJournal& journal) {
    for (const std::string& id : ids) {
      journal.AppendBegin(id);
      journal.AppendRow(Row(id), "reduction", 0.1);
    }
    if (!then.empty()) journal.AppendBegin(then);
    return end;
  };
}

class SweepSupervisor : public ::testing::Test {
 protected:
  SupervisedEnd Run(std::vector<ScriptedWorkers::Step> steps, bool stop = false) {
    ScriptedWorkers workers(journal_, std::move(steps));
    const SupervisedEnd end = Supervise(
        workers, journal_,
        [this](const std::string& id, const std::string& how) -> std::optional<BlamedRow> {
          blamed_.push_back(id + " (" + how + ")");
          results::ResultRow row{.id = id, .category = "reduction/sum",
                                 .status = results::RowStatus::kError};
          row.message = "died: " + how;
          return BlamedRow{.row = row, .sweep = "reduction"};
        },
        [stop] { return stop; }, lines_);
    runs_ = workers.runs();
    return end;
  }

  testing::ScratchFolder folder_{"supervisor"};
  SweepJournal journal_ =
      SweepJournal::Create((folder_.path() / "journal").string(), {{"sweeps", "reduction"}});
  std::vector<std::string> blamed_;
  std::ostringstream lines_;
  size_t runs_ = 0;
};

TEST_F(SweepSupervisor, AWorkerThatDiesMidConfigurationLosesOnlyIt) {
  const SupervisedEnd end =
      Run({Finishes({"a"}, {.kind = Kind::kDied, .how = "signal 11 (Segmentation fault)"}, "b"),
           Finishes({"c"}, {.kind = Kind::kDone})});
  EXPECT_EQ(end.kind, SupervisedEnd::Kind::kComplete);
  EXPECT_EQ(runs_, 2u);
  EXPECT_EQ(blamed_, std::vector<std::string>{"b (signal 11 (Segmentation fault))"});
  ASSERT_TRUE(journal_.rows().contains("b"));
  EXPECT_EQ(journal_.rows().at("b").status, results::RowStatus::kError);
  EXPECT_EQ(journal_.rows().size(), 3u);
  EXPECT_NE(lines_.str().find("sweep worker ended (signal 11"), std::string::npos);
}

TEST_F(SweepSupervisor, AHungOrLostDeviceIsBlamedOnItsConfigurationToo) {
  for (const auto& [kind, id] : {std::pair{Kind::kHung, "hung"}, {Kind::kDeviceLost, "lost"}}) {
    blamed_.clear();
    const SupervisedEnd end = Run({Finishes({}, {.kind = kind, .how = "exit code 76"}, id),
                                   Finishes({}, {.kind = Kind::kDone})});
    EXPECT_EQ(end.kind, SupervisedEnd::Kind::kComplete);
    EXPECT_EQ(blamed_.size(), 1u);
  }
}

TEST_F(SweepSupervisor, AFreshDevicePerProblemIsNoFailure) {
  const SupervisedEnd end = Run({Finishes({"a"}, {.kind = Kind::kNewDevice}),
                                 Finishes({"b"}, {.kind = Kind::kNewDevice}),
                                 Finishes({"c"}, {.kind = Kind::kDone})});
  EXPECT_EQ(end.kind, SupervisedEnd::Kind::kComplete);
  EXPECT_EQ(runs_, 3u);
  EXPECT_TRUE(blamed_.empty());
  EXPECT_EQ(lines_.str(), "");
}

TEST_F(SweepSupervisor, TwoWorkersInARowWithoutProgressEndTheRun) {
  // One that progressed resets the count: died (blamed: progress), died before any (1), died
  // before any (2): the end.
  const SupervisedEnd end =
      Run({Finishes({}, {.kind = Kind::kDied, .how = "signal 6 (Aborted)"}, "a"),
           Finishes({}, {.kind = Kind::kDied, .how = "signal 6 (Aborted)"}),
           Finishes({}, {.kind = Kind::kDied, .how = "signal 6 (Aborted)"})});
  EXPECT_EQ(end.kind, SupervisedEnd::Kind::kStalled);
  EXPECT_EQ(runs_, 3u);
  EXPECT_NE(end.why.find("2 sweep workers in a row ended before any configuration (last: signal 6"),
            std::string::npos)
      << end.why;
}

TEST_F(SweepSupervisor, AnInterruptOrAWorkersOwnFailureEndsTheRunAtOnce) {
  EXPECT_EQ(Run({Finishes({"a"}, {.kind = Kind::kInterrupted})}).kind,
            SupervisedEnd::Kind::kInterrupted);
  EXPECT_EQ(Run({Finishes({"b"}, {.kind = Kind::kNewDevice})}, /*stop=*/true).kind,
            SupervisedEnd::Kind::kInterrupted);
  EXPECT_EQ(runs_, 1u);  // no fresh worker once a stop was asked for
  const SupervisedEnd failed = Run({Finishes({}, {.kind = Kind::kFailed, .exit_code = 2,
                                                  .how = "exit code 2"})});
  EXPECT_EQ(failed.kind, SupervisedEnd::Kind::kWorkerFailed);
  EXPECT_EQ(failed.exit_code, 2);
  EXPECT_EQ(failed.why, "the worker failed (exit code 2)");
  EXPECT_TRUE(blamed_.empty());
}

}  // namespace
}  // namespace refract::tune
