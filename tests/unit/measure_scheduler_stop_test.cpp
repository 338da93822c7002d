// The scheduler's ways to end early: a stop request (SIGINT, SIGTERM) between measurements, a
// lost device and a hung one, in every phase (overhead, calibration, rounds).
#include <gtest/gtest.h>

#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "base/error.h"
#include "measure/scheduler.h"
#include "testing/fake_timer.h"
#include "testing/schedule_fixture.h"

namespace refract::measure {
namespace {

using testing::FakeTimer;
using testing::FakeWorkload;
using testing::WallSample;

// Workloads without a knob measured in batches of one (testing::ScheduleFixture), three samples
// each. The timer answers 10 ms unless a test scripts otherwise.
class SchedulerStopTest : public testing::ScheduleFixture {
 protected:
  SchedulerStopTest() {
    options_.stopping.kind = StoppingKind::kFixedCount;
    options_.stopping.samples = 3;
    options_.stop_requested = [this] { return stop_; };
    timer_ = FakeTimer([this](Workload& workload, uint32_t) {
      ++measurements_;
      if (on_measurement_) on_measurement_(std::string(workload.id()));
      return WallSample(10);
    });
  }

  bool stop_ = false;
  int measurements_ = 0;  // timer calls answered by the script (after calibration)
  std::function<void(const std::string&)> on_measurement_;
};

TEST_F(SchedulerStopTest, StopBeforeTheStartSkipsEveryWorkloadWithoutTouchingTheGpu) {
  Add("a");
  Add("b");
  stop_ = true;
  const std::vector<WorkloadOutcome> outcomes = Run();
  for (const WorkloadOutcome& outcome : outcomes) {
    EXPECT_EQ(outcome.status, Status::kSkipped) << outcome.id;
    EXPECT_EQ(outcome.message, kInterruptedMessage);
    EXPECT_EQ(outcome.stop_reason, StopReason::kNone);
  }
  EXPECT_EQ(timer_.empty_submits(), 0);
  EXPECT_TRUE(timer_.calls().empty());
}

TEST_F(SchedulerStopTest, StopDuringCalibrationSkipsTheWorkloadsNotYetCalibrated) {
  Add("a");
  Add("b");
  // The second calibration call of "a" (its warm-up) asks to stop: "a" finishes calibrating,
  // "b" is never calibrated.
  int calls_of_a = 0;
  timer_ = FakeTimer([&](Workload& workload, uint32_t) {
    if (workload.id() == "a" && ++calls_of_a == 2) stop_ = true;
    return WallSample(60);
  });
  const std::vector<WorkloadOutcome> outcomes = Run();
  EXPECT_EQ(calls_of_a, 2);
  EXPECT_TRUE(timer_.CallsFor("b").empty());
  for (const WorkloadOutcome& outcome : outcomes) {
    EXPECT_EQ(outcome.status, Status::kSkipped) << outcome.id;
    EXPECT_EQ(outcome.message, kInterruptedMessage);
  }
}

TEST_F(SchedulerStopTest, StopBetweenMeasurementsKeepsSettledWorkloadsAndSkipsTheRest) {
  options_.stopping.samples = 1;  // each workload settles with its first sample
  Add("a");
  Add("b");
  Add("c");
  on_measurement_ = [this](const std::string&) { stop_ = measurements_ == 2; };
  const std::vector<WorkloadOutcome> outcomes = Run();
  EXPECT_EQ(measurements_, 2);  // the measurement under way when the stop came still finished
  int ok = 0, skipped = 0;
  for (const WorkloadOutcome& outcome : outcomes) {
    if (outcome.status == Status::kOk) {
      ++ok;
      EXPECT_EQ(outcome.times_ms, std::vector<double>{10}) << outcome.id;
      EXPECT_EQ(outcome.stop_reason, StopReason::kSampleCount);
    } else {
      ++skipped;
      EXPECT_EQ(outcome.status, Status::kSkipped) << outcome.id;
      EXPECT_EQ(outcome.message, kInterruptedMessage);
    }
  }
  EXPECT_EQ(ok, 2);
  EXPECT_EQ(skipped, 1);
}

TEST_F(SchedulerStopTest, AWorkloadStoppedMidwayKeepsItsSamplesButEndsSkipped) {
  Add("a");
  on_measurement_ = [this](const std::string&) { stop_ = measurements_ == 2; };
  const std::vector<WorkloadOutcome> outcomes = Run();
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_EQ(outcomes[0].status, Status::kSkipped);
  EXPECT_EQ(outcomes[0].times_ms.size(), 2u);  // 2 of the 3 samples asked for
}

TEST_F(SchedulerStopTest, AStopEndsTheIdleGapEarly) {
  options_.idle_gap_ms = 60000;
  Add("a");
  Add("b");
  // The stop arrives while the scheduler sleeps before its second measurement.
  clock_.set_on_sleep([this](double) { stop_ = true; });
  const std::vector<WorkloadOutcome> outcomes = Run();
  EXPECT_EQ(measurements_, 1);
  const double slept_ms = std::accumulate(clock_.sleeps().begin(), clock_.sleeps().end(), 0.0);
  EXPECT_LE(slept_ms, kStopCheckMs);
  for (const WorkloadOutcome& outcome : outcomes) {
    EXPECT_EQ(outcome.status, Status::kSkipped) << outcome.id;  // 3 samples were asked for
  }
}

TEST_F(SchedulerStopTest, WithoutAStopCheckTheIdleGapIsOneSleep) {
  options_.stop_requested = nullptr;
  options_.idle_gap_ms = 250;
  Add("a");
  Run();
  EXPECT_EQ(clock_.sleeps(), (std::vector<double>{250, 250}));  // before samples 2 and 3
}

TEST_F(SchedulerStopTest, DeviceLossDuringTheOverheadEndsEveryWorkload) {
  Add("a");
  Add("b");
  timer_.set_empty_submit_script([]() -> double { throw DeviceLostError("device lost: reset"); });
  const std::vector<WorkloadOutcome> outcomes = Run();
  for (const WorkloadOutcome& outcome : outcomes) {
    EXPECT_EQ(outcome.status, Status::kError) << outcome.id;
    EXPECT_EQ(outcome.message, "device lost: reset");
  }
  EXPECT_TRUE(timer_.calls().empty());
}

TEST_F(SchedulerStopTest, DeviceLossDuringCalibrationEndsEveryUnsettledWorkload) {
  Add("a");
  workloads_.push_back(std::make_unique<FakeWorkload>("b", 1e9));  // "b" loses the device
  Add("c");
  timer_ = FakeTimer([](Workload& workload, uint32_t) -> Sample {
    if (workload.id() == "b") throw DeviceLostError("device lost: reset");
    return WallSample(60);
  });
  const std::vector<WorkloadOutcome> outcomes = Run();
  for (const WorkloadOutcome& outcome : outcomes) {
    EXPECT_EQ(outcome.status, Status::kError) << outcome.id;
    EXPECT_EQ(outcome.message, "device lost: reset");
  }
  EXPECT_TRUE(timer_.CallsFor("c").empty());  // never calibrated on a lost device
}

TEST_F(SchedulerStopTest, AHangDuringCalibrationFailsThatWorkloadAndNotRunsTheOthers) {
  Add("a");
  workloads_.push_back(std::make_unique<FakeWorkload>("b", 1e9));
  Add("c");
  timer_ = FakeTimer([](Workload& workload, uint32_t) -> Sample {
    if (workload.id() == "b") throw DeviceHungError("did not finish within 3 s");
    return WallSample(60);
  });
  const std::vector<WorkloadOutcome> outcomes = Run();
  EXPECT_EQ(outcomes[1].status, Status::kError);
  EXPECT_EQ(outcomes[1].message, "did not finish within 3 s");
  for (size_t i : {0u, 2u}) {
    EXPECT_EQ(outcomes[i].status, Status::kError) << outcomes[i].id;
    EXPECT_EQ(outcomes[i].message, kNotRunAfterHang);
  }
  EXPECT_TRUE(timer_.CallsFor("c").empty());
}

TEST_F(SchedulerStopTest, AHangInARoundKeepsSettledWorkloadsAndNotRunsTheRest) {
  options_.stopping.samples = 1;
  Add("a");
  Add("b");
  Add("c");
  std::string hung;
  on_measurement_ = [&](const std::string& id) {
    if (measurements_ == 2) {
      hung = id;
      throw DeviceHungError("did not finish within 3 s");
    }
  };
  const std::vector<WorkloadOutcome> outcomes = Run();
  int ok = 0, not_run = 0;
  for (const WorkloadOutcome& outcome : outcomes) {
    if (outcome.id == hung) {
      EXPECT_EQ(outcome.status, Status::kError);
      EXPECT_EQ(outcome.message, "did not finish within 3 s");
    } else if (outcome.status == Status::kOk) {
      ++ok;
      EXPECT_EQ(outcome.times_ms, std::vector<double>{10});
    } else {
      ++not_run;
      EXPECT_EQ(outcome.status, Status::kError);
      EXPECT_EQ(outcome.message, kNotRunAfterHang);
    }
  }
  EXPECT_EQ(ok, 1);
  EXPECT_EQ(not_run, 1);
  EXPECT_EQ(measurements_, 2);  // nothing was asked of the hung device
}

}  // namespace
}  // namespace refract::measure
