#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
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
using testing::GpuSample;
using testing::WallSample;

// Workloads without a knob measured in batches of one (testing::ScheduleFixture): each queued
// time is one sample's per-dispatch time.
class MeasureSchedulerTest : public testing::ScheduleFixture {
 protected:
  // Ids of the measurement calls (after calibration), in order.
  std::vector<std::string> MeasuredOrder() const {
    std::vector<std::string> ids;
    const size_t calibration_calls = 2 * workloads_.size();
    for (size_t i = calibration_calls; i < timer_.calls().size(); ++i) {
      ids.push_back(timer_.calls()[i].id);
    }
    return ids;
  }

  size_t SleepsOf(double ms) const {
    return static_cast<size_t>(std::count(clock_.sleeps().begin(), clock_.sleeps().end(), ms));
  }
};

bool HasFlag(const WorkloadOutcome& outcome, std::string_view flag) {
  return std::find(outcome.flags.begin(), outcome.flags.end(), flag) != outcome.flags.end();
}

// Records what the scheduler reports.
class RecordingObserver : public SchedulerObserver {
 public:
  void OnCalibrated(size_t index, const Calibration&) override { calibrated.push_back(index); }
  void OnSample(size_t, const WorkloadOutcome&) override { ++samples; }
  void OnSettled(size_t index, const WorkloadOutcome&) override { settled.push_back(index); }
  void OnRoundDone(uint32_t round, size_t settled_count, size_t total, double eta_s) override {
    rounds.push_back(round);
    settled_counts.push_back(settled_count);
    totals.push_back(total);
    etas_s.push_back(eta_s);
  }
  void OnCooldown(uint32_t count) override { cooldowns.push_back(count); }

  std::vector<size_t> calibrated, settled, settled_counts, totals;
  std::vector<uint32_t> rounds, cooldowns;
  std::vector<double> etas_s;
  int samples = 0;
};

TEST_F(MeasureSchedulerTest, ConvergesAfterMinRounds) {
  Add("a", {10, 10, 10, 10, 10});
  const std::vector<WorkloadOutcome> outcomes = Run();
  ASSERT_EQ(outcomes.size(), 1u);
  const WorkloadOutcome& a = outcomes[0];
  EXPECT_EQ(a.status, Status::kOk);
  EXPECT_EQ(a.stop_reason, StopReason::kConverged);
  EXPECT_EQ(a.times_ms, (std::vector<double>{10, 10, 10}));
  EXPECT_TRUE(a.throttled_ms.empty());
  EXPECT_EQ(a.stats.count, 3u);
  EXPECT_DOUBLE_EQ(a.best_ms, 10);
  EXPECT_DOUBLE_EQ(a.metric_value, 1e11);  // 1e9 units / 10 ms
  EXPECT_EQ(a.dispatches_per_sample, 1u);
  EXPECT_EQ(a.timing_method, "wall-clock");
}

TEST_F(MeasureSchedulerTest, DoesNotConvergeBeforeMinRounds) {
  options_.stopping.min_rounds = 5;
  Add("a", {10, 10, 10, 10, 10, 10, 10});
  const WorkloadOutcome a = Run()[0];
  EXPECT_EQ(a.stop_reason, StopReason::kConverged);
  EXPECT_EQ(a.times_ms.size(), 5u);
}

TEST_F(MeasureSchedulerTest, ConvergesWhenLastTwoStopImproving) {
  // n = 3: 8 < 0.99 × 10; n = 4: 7.9 < 0.99 × 9; n = 5: 7.85 < 0.99 × 8;
  // n = 6: 7.85 ≥ 0.99 × 7.9 → converged.
  Add("a", {10, 9, 8, 7.9, 7.85, 7.85, 7.0});
  const WorkloadOutcome a = Run()[0];
  EXPECT_EQ(a.stop_reason, StopReason::kConverged);
  EXPECT_EQ(a.times_ms.size(), 6u);
  EXPECT_DOUBLE_EQ(a.best_ms, 7.85);
}

TEST_F(MeasureSchedulerTest, StopsAtMaxRoundsKept) {
  std::vector<double> improving;
  improving.reserve(15);
  for (int i = 0; i < 15; ++i) improving.push_back(10.0 * std::pow(0.95, i));
  Add("a", improving);
  const WorkloadOutcome a = Run()[0];
  EXPECT_EQ(a.stop_reason, StopReason::kMaxRounds);
  EXPECT_EQ(a.times_ms.size(), 10u);
  EXPECT_TRUE(a.throttled_ms.empty());
}

TEST_F(MeasureSchedulerTest, StopsWhenKeptPlusThrottledReachTwiceMaxRounds) {
  // Pattern: an improving kept sample, then two throttled ones (> 1.2 × best).
  std::vector<double> times;
  double best = 10;
  for (int i = 0; i < 10; ++i) {
    times.insert(times.end(), {best, 20, 20});
    best *= 0.95;
  }
  Add("a", times);
  const WorkloadOutcome a = Run()[0];
  EXPECT_EQ(a.stop_reason, StopReason::kMaxRounds);
  EXPECT_EQ(a.times_ms.size() + a.throttled_ms.size(), 20u);
  EXPECT_EQ(a.times_ms.size(), 7u);
  EXPECT_EQ(a.throttled_ms.size(), 13u);
}

TEST_F(MeasureSchedulerTest, KeepsThrottledSamplesOutOfStats) {
  Add("a", {10, 13, 11.9, 10});  // 13 > 1.2 × 10; 11.9 is not
  const WorkloadOutcome a = Run()[0];
  EXPECT_EQ(a.throttled_ms, (std::vector<double>{13}));
  EXPECT_EQ(a.times_ms, (std::vector<double>{10, 11.9, 10}));
  EXPECT_EQ(a.stats.count, 3u);
  EXPECT_DOUBLE_EQ(a.stats.mean, 31.9 / 3);
  EXPECT_EQ(a.stop_reason, StopReason::kConverged);
  EXPECT_FALSE(HasFlag(a, "throttled"));
}

TEST_F(MeasureSchedulerTest, CoolsDownAfterAHotRound) {
  Add("a", {10, 13, 10, 10});
  Add("b", {10, 13, 10, 10});
  RecordingObserver observer;
  const std::vector<WorkloadOutcome> outcomes = Run(&observer);
  EXPECT_EQ(SleepsOf(3000), 1u);
  EXPECT_EQ(observer.cooldowns, (std::vector<uint32_t>{1}));
  for (const WorkloadOutcome& outcome : outcomes) {
    EXPECT_EQ(outcome.stop_reason, StopReason::kConverged);
    EXPECT_EQ(outcome.throttled_ms, (std::vector<double>{13}));
  }
}

TEST_F(MeasureSchedulerTest, NoCooldownWhenFewerThanHalfAreThrottled) {
  Add("a", {10, 13, 10, 10});
  Add("b", {10, 13, 10, 10});
  Add("c", {10, 10, 10});
  Add("d", {10, 10, 10});
  Add("e", {10, 10, 10});
  Run();
  EXPECT_EQ(SleepsOf(3000), 0u);  // 2 of 5 throttled in round 2
}

TEST_F(MeasureSchedulerTest, OneThrottledSampleIsNotAHotRound) {
  Add("a", {10, 13, 10, 10});  // round 2: 1 of 1 samples throttled, but fewer than 2
  Run();
  EXPECT_EQ(SleepsOf(3000), 0u);
}

TEST_F(MeasureSchedulerTest, GivesUpAsThrottledAfterThreeCooldowns) {
  Add("a", {10, 13, 13, 13, 13, 13, 13});
  Add("b", {10, 13, 13, 13, 13, 13, 13});
  RecordingObserver observer;
  const std::vector<WorkloadOutcome> outcomes = Run(&observer);
  EXPECT_EQ(SleepsOf(3000), 3u);
  EXPECT_EQ(observer.cooldowns, (std::vector<uint32_t>{1, 2, 3}));
  EXPECT_EQ(observer.rounds.size(), 5u);  // rounds 2–4 cool down, round 5 gives up
  for (const WorkloadOutcome& outcome : outcomes) {
    EXPECT_EQ(outcome.status, Status::kOk);
    EXPECT_EQ(outcome.stop_reason, StopReason::kThrottled);
    EXPECT_TRUE(HasFlag(outcome, "throttled"));
    EXPECT_EQ(outcome.times_ms, (std::vector<double>{10}));
    EXPECT_EQ(outcome.throttled_ms.size(), 4u);
  }
}

TEST_F(MeasureSchedulerTest, FewKeptSamplesAreFlaggedAndLeaveTheSpreadUnknown) {
  // One kept sample beside throttled ones (two workloads, so that a round can be hot): a
  // figure, but no interval (not ±0).
  Add("a", {10, 13, 13, 13, 13, 13, 13});
  Add("other", {10, 13, 13, 13, 13, 13, 13});
  const WorkloadOutcome a = Run()[0];
  ASSERT_EQ(a.times_ms.size(), 1u);
  EXPECT_EQ(a.stop_reason, StopReason::kThrottled);
  EXPECT_TRUE(HasFlag(a, kFewSamplesFlag));
  EXPECT_TRUE(std::isnan(a.stats.ci95));
  EXPECT_TRUE(std::isnan(a.stats.stddev));
  EXPECT_DOUBLE_EQ(a.best_ms, 10);
  // Two kept samples (--min-rounds 1 converges on them) are still too few; three are enough.
  for (const uint32_t min_rounds : {2u, 3u}) {
    SCOPED_TRACE(min_rounds);
    workloads_.clear();
    options_.stopping.min_rounds = min_rounds;
    options_.stopping.stable_rounds = 1;
    Add("b" + std::to_string(min_rounds), {10, 10, 10, 10});
    const WorkloadOutcome b = Run()[0];
    EXPECT_EQ(b.times_ms.size(), min_rounds);
    // The rule's number, written out: the expectation must not move with the constant.
    const bool too_few = min_rounds == 2u;
    EXPECT_EQ(HasFlag(b, kFewSamplesFlag), too_few);
    EXPECT_EQ(std::isnan(b.stats.ci95), too_few);
  }
}

TEST_F(MeasureSchedulerTest, DemotesTimestampsAfterTwoStrikes) {
  workloads_.push_back(std::make_unique<FakeWorkload>("a", 1.0));
  // Calibration: one 60 ms batch, one warm-up. Then a good GPU sample, two strikes
  // (gpuWall 10 ≥ 4 and 2 × 2 < 10), and plausible GPU times that must now be ignored.
  timer_.Queue("a", {GpuSample(60, 55), GpuSample(60, 55), GpuSample(10, 9), GpuSample(10, 2),
                     GpuSample(10, 2), GpuSample(10, 9), GpuSample(10, 9)});
  const WorkloadOutcome a = Run()[0];
  EXPECT_TRUE(HasFlag(a, "timestamp-demoted"));
  EXPECT_EQ(a.timing_method, "wall-clock");
  // Samples before the demotion are dropped; the rest are wall times.
  EXPECT_EQ(a.times_ms, (std::vector<double>{10, 10, 10}));
  EXPECT_EQ(a.stop_reason, StopReason::kConverged);
}

TEST_F(MeasureSchedulerTest, KeepsTimestampsAfterOneStrike) {
  workloads_.push_back(std::make_unique<FakeWorkload>("a", 1.0));
  timer_.Queue("a", {GpuSample(60, 55), GpuSample(60, 55), GpuSample(10, 9), GpuSample(10, 2),
                     GpuSample(10, 9)});
  const WorkloadOutcome a = Run()[0];
  EXPECT_FALSE(HasFlag(a, "timestamp-demoted"));
  EXPECT_EQ(a.timing_method, "gpu-timestamp");
  EXPECT_EQ(a.times_ms, (std::vector<double>{9, 10, 9}));  // the strike used wall time
}

TEST_F(MeasureSchedulerTest, TurnsBadTimesIntoErrorsAndGoesOn) {
  Add("ok", {10, 10, 10});
  Add("zero", {0});
  Add("nan", {std::numeric_limits<double>::quiet_NaN()});
  Add("inf", {std::numeric_limits<double>::infinity()});
  const std::vector<WorkloadOutcome> outcomes = Run();
  EXPECT_EQ(outcomes[0].status, Status::kOk);
  EXPECT_EQ(outcomes[0].stop_reason, StopReason::kConverged);
  for (size_t i = 1; i < outcomes.size(); ++i) {
    EXPECT_EQ(outcomes[i].status, Status::kError) << outcomes[i].id;
    EXPECT_NE(outcomes[i].message.find("the pass likely did no work"), std::string::npos)
        << outcomes[i].message;
    EXPECT_EQ(outcomes[i].stop_reason, StopReason::kNone);
  }
}

TEST_F(MeasureSchedulerTest, CalibrationErrorEndsOnlyThatWorkload) {
  Add("ok", {10, 10, 10});
  workloads_.push_back(std::make_unique<FakeWorkload>("broken", 1.0));
  FakeTimer::Script fail = [](Workload& w, uint32_t) -> Sample {
    if (w.id() == "broken") throw GpuError("validation error: bad pipeline");
    throw std::logic_error("unexpected call");
  };
  timer_ = FakeTimer(fail);
  timer_.Queue("ok",
               {WallSample(60), WallSample(60), WallSample(10), WallSample(10), WallSample(10)});
  RecordingObserver observer;
  const std::vector<WorkloadOutcome> outcomes = Run(&observer);
  EXPECT_EQ(outcomes[0].status, Status::kOk);
  EXPECT_EQ(outcomes[1].status, Status::kError);
  EXPECT_EQ(outcomes[1].message, "validation error: bad pipeline");
  EXPECT_EQ(observer.calibrated, (std::vector<size_t>{0}));
  EXPECT_EQ(timer_.CallsFor("broken").size(), 1u);  // never measured after failing
}

TEST_F(MeasureSchedulerTest, DeviceLossEndsEveryUnsettledWorkload) {
  FakeTimer::Script lost = [](Workload& w, uint32_t) -> Sample {
    if (w.id() == "b") throw DeviceLostError("device lost: GPU hung");
    return WallSample(5);  // "c" keeps improving if it is asked
  };
  timer_ = FakeTimer(lost);
  Add("a", {10, 10, 10});         // converges in round 3
  Add("b", {10, 9, 8});           // loses the device in round 4
  Add("c", {10, 9, 8, 7, 6, 5});  // never converges
  const std::vector<WorkloadOutcome> outcomes = Run();
  EXPECT_EQ(outcomes[0].status, Status::kOk);
  EXPECT_EQ(outcomes[0].stop_reason, StopReason::kConverged);
  for (size_t i : {1u, 2u}) {
    EXPECT_EQ(outcomes[i].status, Status::kError) << outcomes[i].id;
    EXPECT_EQ(outcomes[i].message, "device lost: GPU hung");
  }
}

TEST_F(MeasureSchedulerTest, OrderIsDeterministicPerSeedAndShuffledPerRound) {
  const std::vector<std::string> ids = {"a", "b", "c", "d", "e"};
  auto run_with_seed = [&](uint64_t seed) {
    workloads_.clear();
    timer_ = FakeTimer();
    options_.seed = seed;
    for (const std::string& id : ids) Add(id, {10, 10, 10});
    Run();
    return MeasuredOrder();
  };
  const std::vector<std::string> first = run_with_seed(42);
  ASSERT_EQ(first.size(), 15u);
  EXPECT_EQ(run_with_seed(42), first);
  EXPECT_NE(run_with_seed(7), first);

  std::vector<std::vector<std::string>> rounds;
  for (size_t r = 0; r < 3; ++r) {
    rounds.emplace_back(first.begin() + static_cast<long>(5 * r),
                        first.begin() + static_cast<long>(5 * r + 5));
    std::vector<std::string> sorted = rounds.back();
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, ids) << "round " << r << " measures each workload once";
  }
  EXPECT_TRUE(rounds[0] != rounds[1] || rounds[1] != rounds[2]);
}

TEST_F(MeasureSchedulerTest, SleepsAnIdleGapBetweenMeasurements) {
  Add("a", {10, 10, 10});
  Add("b", {10, 10, 10});
  Run();
  EXPECT_EQ(SleepsOf(100), 5u);  // 6 measurements
  EXPECT_EQ(clock_.sleeps().size(), 5u);
}

TEST_F(MeasureSchedulerTest, ReportsRoundsAndEta) {
  timer_.set_clock(&clock_);
  Add("a", {10, 10, 10});
  Add("b", {10, 10, 10});
  RecordingObserver observer;
  Run(&observer);
  EXPECT_EQ(observer.rounds, (std::vector<uint32_t>{1, 2, 3}));
  EXPECT_EQ(observer.settled_counts, (std::vector<size_t>{0, 0, 2}));
  EXPECT_EQ(observer.totals, (std::vector<size_t>{2, 2, 2}));
  // Round 1: 10 ms + 100 ms gap + 10 ms over 2 measurements = 60 ms each; 9 + 9 left.
  ASSERT_EQ(observer.etas_s.size(), 3u);
  EXPECT_NEAR(observer.etas_s[0], 0.060 * 18, 1e-9);
  EXPECT_EQ(observer.etas_s[2], 0);
  EXPECT_EQ(observer.samples, 6);
  EXPECT_EQ(observer.calibrated, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(observer.settled.size(), 2u);
}

TEST_F(MeasureSchedulerTest, FlagsNonLinearWorkloadAsSuspect) {
  // A knob whose value does not change the time: 1 ms a dispatch on the GPU.
  workloads_.push_back(std::make_unique<FakeWorkload>("hoisted", 16, 1024, 64.0));
  timer_ = FakeTimer([](Workload&, uint32_t n) { return GpuSample(1.0 * n, 1.0 * n); });
  const WorkloadOutcome outcome = Run()[0];
  EXPECT_EQ(outcome.status, Status::kOk);
  EXPECT_TRUE(HasFlag(outcome, "suspect"));
  EXPECT_EQ(outcome.linearity.state, LinearityState::kSuspect);
  EXPECT_EQ(outcome.work, 1024u);
  EXPECT_EQ(outcome.dispatches_per_sample, 60u);  // 1, 4, 16, then ⌊16 × 60 / 16⌋ = 60 ms ≥ 50 ms
  EXPECT_DOUBLE_EQ(outcome.work_per_dispatch, 64.0 * 1024);
  EXPECT_DOUBLE_EQ(outcome.metric_value, 64.0 * 1024 / 1e-3);
  EXPECT_EQ(outcome.timing_method, "gpu-timestamp");
}

TEST_F(MeasureSchedulerTest, EmptyListReturnsNothing) {
  EXPECT_TRUE(Run().empty());
  EXPECT_TRUE(timer_.calls().empty());
}

}  // namespace
}  // namespace refract::measure

namespace refract::measure {
namespace {

// A fixed count keeps every sample, slow ones too (no throttling), and stands on the median.
TEST_F(MeasureSchedulerTest, FixedCountKeepsEverySampleAndReportsTheMedian) {
  options_.stopping = {.kind = StoppingKind::kFixedCount, .samples = 5};
  Add("a", {10, 30, 12, 11, 40, 99});
  const WorkloadOutcome a = Run()[0];
  EXPECT_EQ(a.status, Status::kOk);
  EXPECT_EQ(a.stop_reason, StopReason::kSampleCount);
  EXPECT_EQ(a.times_ms, (std::vector<double>{10, 30, 12, 11, 40}));
  EXPECT_TRUE(a.throttled_ms.empty());
  EXPECT_EQ(a.headline, Headline::kMedian);
  EXPECT_DOUBLE_EQ(a.stats.median, 12);
  EXPECT_DOUBLE_EQ(a.metric_value, 1e9 / 0.012);  // work over the median, not the best
  EXPECT_DOUBLE_EQ(a.best_ms, 10);
}

// The same samples under best-of-N: slow ones are set aside and the best stands.
TEST_F(MeasureSchedulerTest, ConvergenceSetsAsideSlowSamplesAndReportsTheBest) {
  Add("a", {10, 30, 12, 11, 40, 10, 10});
  const WorkloadOutcome a = Run()[0];
  EXPECT_EQ(a.headline, Headline::kMin);
  EXPECT_EQ(a.times_ms, (std::vector<double>{10, 12, 11}));  // converged at three kept
  EXPECT_EQ(a.throttled_ms, (std::vector<double>{30}));
  EXPECT_DOUBLE_EQ(a.metric_value, 1e9 / 0.010);
}

// A fixed count's ETA counts the samples still to take.
TEST(MeasureStoppingRule, FixedCountLeavesTheRestOfItsSamples) {
  std::unique_ptr<StoppingRule> rule =
      MakeStoppingRule({.kind = StoppingKind::kFixedCount, .samples = 4});
  WorkloadOutcome outcome;
  outcome.times_ms = {1, 2, 3};
  EXPECT_EQ(rule->SamplesLeft(outcome), 1u);
  EXPECT_EQ(rule->Check(outcome), StopReason::kNone);
  outcome.times_ms.push_back(4);
  EXPECT_EQ(rule->Check(outcome), StopReason::kSampleCount);
  EXPECT_FALSE(rule->SetsAsideThrottled());
  EXPECT_TRUE(MakeStoppingRule({})->SetsAsideThrottled());
}

}  // namespace
}  // namespace refract::measure
