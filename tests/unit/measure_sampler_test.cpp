#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "base/error.h"
#include "measure/sampler.h"
#include "testing/fake_timer.h"

namespace refract::measure {
namespace {

using testing::FakeTimer;
using testing::FakeWorkload;
using testing::GpuSample;
using testing::WallSample;

TEST(MeasureSamplerTest, PerDispatchTimeIsGpuTimeOverN) {
  FakeWorkload workload("k", 1.0);
  FakeTimer timer;
  timer.Queue("k", {GpuSample(50, 40)});
  Sampler sampler(timer, 0.1);
  const Measurement m = sampler.Measure(workload, 10);
  EXPECT_DOUBLE_EQ(m.dispatch_ms, 4.0);
  EXPECT_EQ(m.source, TimeSource::kGpuTimestamp);
  EXPECT_EQ(sampler.TimingMethod(), "gpu-timestamp");
  EXPECT_EQ(timer.calls().at(0).dispatch_count, 10u);
}

TEST(MeasureSamplerTest, WithoutTimestampsUsesWallTime) {
  FakeWorkload workload("k", 1.0);
  FakeTimer timer;
  timer.Queue("k", {WallSample(50)});
  Sampler sampler(timer, 0.1);
  const Measurement m = sampler.Measure(workload, 10);
  EXPECT_DOUBLE_EQ(m.dispatch_ms, 5.0);
  EXPECT_EQ(m.source, TimeSource::kWallClock);
  EXPECT_EQ(sampler.TimingMethod(), "wall-clock");
}

TEST(MeasureSamplerTest, StrikeUsesWallTimeButOneStrikeDoesNotDemote) {
  FakeWorkload workload("k", 1.0);
  FakeTimer timer;
  // Overhead 1: gpuWall = 20 ≥ 4 and 5 × 2 < 20 is a strike; gpu 15 is fine.
  timer.Queue("k", {GpuSample(21, 5), GpuSample(21, 15), GpuSample(21, 5), GpuSample(21, 15)});
  Sampler sampler(timer, 1.0);
  const Measurement first = sampler.Measure(workload, 1);
  EXPECT_TRUE(first.strike);
  EXPECT_DOUBLE_EQ(first.dispatch_ms, 21);
  EXPECT_EQ(first.source, TimeSource::kWallClock);
  EXPECT_FALSE(first.demoted_now);
  const Measurement good = sampler.Measure(workload, 1);  // resets the count
  EXPECT_FALSE(good.strike);
  EXPECT_DOUBLE_EQ(good.dispatch_ms, 15);
  const Measurement again = sampler.Measure(workload, 1);
  EXPECT_TRUE(again.strike);
  EXPECT_FALSE(again.demoted_now);
  EXPECT_FALSE(sampler.IsDemoted());
  EXPECT_DOUBLE_EQ(sampler.Measure(workload, 1).dispatch_ms, 15);
  EXPECT_EQ(sampler.TimingMethod(), "gpu-timestamp");
}

TEST(MeasureSamplerTest, TwoStrikesInARowDemoteForGood) {
  FakeWorkload workload("k", 1.0);
  FakeTimer timer;
  timer.Queue("k", {GpuSample(21, 5), GpuSample(21, 5), GpuSample(21, 15)});
  Sampler sampler(timer, 1.0);
  EXPECT_FALSE(sampler.Measure(workload, 1).demoted_now);
  const Measurement second = sampler.Measure(workload, 1);
  EXPECT_TRUE(second.demoted_now);
  EXPECT_TRUE(sampler.IsDemoted());
  // A plausible GPU time afterwards is ignored: wall clock for good.
  const Measurement after = sampler.Measure(workload, 1);
  EXPECT_DOUBLE_EQ(after.dispatch_ms, 21);
  EXPECT_EQ(after.source, TimeSource::kWallClock);
  EXPECT_FALSE(after.demoted_now);
  EXPECT_EQ(sampler.TimingMethod(), "wall-clock");
}

TEST(MeasureSamplerTest, ShortPassesNeverStrike) {
  FakeWorkload workload("k", 1.0);
  FakeTimer timer;
  // gpuWall = 3.9 < 4 ms: a tiny GPU time is believed.
  timer.Queue("k", {GpuSample(4.0, 0.1), GpuSample(4.0, 0.1)});
  Sampler sampler(timer, 0.1);
  EXPECT_FALSE(sampler.Measure(workload, 1).strike);
  EXPECT_DOUBLE_EQ(sampler.Measure(workload, 1).dispatch_ms, 0.1);
  EXPECT_FALSE(sampler.IsDemoted());
}

TEST(MeasureSamplerTest, NonPositiveOrNonFiniteTimeThrowsGpuError) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const Sample& sample : {GpuSample(2, 0), WallSample(0), WallSample(-1), WallSample(nan),
                               WallSample(inf), GpuSample(2, nan)}) {
    FakeWorkload workload("k", 1.0);
    FakeTimer timer;
    timer.Queue("k", {sample});
    Sampler sampler(timer, 0.1);
    try {
      sampler.Measure(workload, 4);
      ADD_FAILURE() << "no throw for wall " << sample.wall_ms;
    } catch (const GpuError& e) {
      EXPECT_NE(std::string(e.what()).find("the pass likely did no work"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace refract::measure
