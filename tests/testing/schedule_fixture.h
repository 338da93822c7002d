// A test fixture for the scheduler: fake workloads without a knob, a scripted timer and a fake
// clock. Each workload's calibration takes two 60 ms calls (a batch probe past the 50 ms stop,
// a warm-up), so it is measured in batches of one: each further queued time is one sample.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "measure/scheduler.h"
#include "testing/fake_clock.h"
#include "testing/fake_timer.h"

namespace refract::testing {

class ScheduleFixture : public ::testing::Test {
 protected:
  /// Adds workload `id` (`work_per_dispatch` units a dispatch) whose samples, after its
  /// calibration, are `times_ms` [ms] a dispatch, then whatever timer_ answers unscripted.
  FakeWorkload& Add(const std::string& id, const std::vector<double>& times_ms = {},
                    double work_per_dispatch = 1e9) {
    workloads_.push_back(std::make_unique<FakeWorkload>(id, work_per_dispatch));
    timer_.Queue(id, {WallSample(60), WallSample(60)});
    for (double ms : times_ms) timer_.Queue(id, {WallSample(ms)});
    return *workloads_.back();
  }

  /// Runs the schedule of every workload added, timed by timer_.
  std::vector<measure::WorkloadOutcome> Run(measure::SchedulerObserver* observer = nullptr) {
    return RunWith(timer_, observer);
  }

  /// Runs the schedule of every workload added, timed by `timer`.
  std::vector<measure::WorkloadOutcome> RunWith(measure::Timer& timer,
                                                measure::SchedulerObserver* observer = nullptr) {
    std::vector<measure::Workload*> pointers;
    for (auto& workload : workloads_) pointers.push_back(workload.get());
    return measure::RunSchedule(pointers, timer, clock_, options_, calibration_options_, observer);
  }

  std::vector<std::unique_ptr<FakeWorkload>> workloads_;
  FakeTimer timer_;
  FakeClock clock_;
  measure::SchedulerOptions options_;
  measure::CalibrationOptions calibration_options_;
};

}  // namespace refract::testing
