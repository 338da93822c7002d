#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "base/error.h"
#include "measure/calibration.h"
#include "testing/fake_timer.h"

namespace refract::measure {
namespace {

using testing::FakeTimer;
using testing::FakeWorkload;

// A kernel whose dispatch takes `ms_per_work` × knob on the GPU; wall adds `overhead_ms`.
FakeTimer::Script LinearGpu(double ms_per_work, double overhead_ms = 0.05) {
  return [=](Workload& workload, uint32_t n) {
    const double gpu_ms = ms_per_work * static_cast<double>(workload.Work()) * n;
    return Sample{gpu_ms + overhead_ms, gpu_ms};
  };
}

std::vector<uint64_t> Works(const Calibration& calibration) {
  std::vector<uint64_t> works;
  for (const WorkProbe& probe : calibration.work_probes) works.push_back(probe.work);
  return works;
}

std::vector<uint32_t> BatchSizes(const Calibration& calibration) {
  std::vector<uint32_t> sizes;
  for (const BatchProbe& probe : calibration.batch_probes) sizes.push_back(probe.dispatches);
  return sizes;
}

bool HasNoteContaining(const Calibration& calibration, const std::string& text) {
  for (const std::string& note : calibration.notes) {
    if (note.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(MeasureCalibrationTest, OverheadIsMinimumOfThreeEmptySubmits) {
  FakeTimer timer;
  timer.set_empty_submit_ms(0.25);
  EXPECT_DOUBLE_EQ(MeasureOverheadMs(timer, CalibrationOptions{}), 0.25);
  EXPECT_EQ(timer.empty_submits(), 3);
}

TEST(MeasureCalibrationTest, WorkRampGrowsAtMostFourfoldAndStopsNearTenMs) {
  FakeWorkload workload("k", 16, 1'000'000, 1.0);
  FakeTimer timer(LinearGpu(0.001));
  const Calibration calibration = Calibrate(workload, timer, 0.05, CalibrationOptions{});
  // 16 → 64 → 256 → 1024 (×4 caps); 1024 takes 1.024 ms → min(1024 × 10 / 1.024, 4096) = 4096;
  // 4096 takes 4.096 ms → 10000, which takes 10 ms ≥ 0.9 × 10 ms: done.
  EXPECT_EQ(Works(calibration), (std::vector<uint64_t>{16, 64, 256, 1024, 4096, 10000}));
  for (size_t i = 1; i < calibration.work_probes.size(); ++i) {
    EXPECT_LE(calibration.work_probes[i].work, 4 * calibration.work_probes[i - 1].work);
  }
  EXPECT_NEAR(calibration.work_probes.back().dispatch_ms, 10.0, 1e-9);
  EXPECT_EQ(calibration.work, 10000u);
  EXPECT_EQ(workload.Work(), 10000u);
  EXPECT_TRUE(calibration.notes.empty());
}

TEST(MeasureCalibrationTest, WorkRampStopsAtTheKnobMaximum) {
  FakeWorkload workload("k", 16, 2000, 1.0);
  FakeTimer timer(LinearGpu(0.001));
  const Calibration calibration = Calibrate(workload, timer, 0.05, CalibrationOptions{});
  EXPECT_EQ(Works(calibration), (std::vector<uint64_t>{16, 64, 256, 1024, 2000}));
  EXPECT_EQ(calibration.work, 2000u);
  EXPECT_TRUE(HasNoteContaining(calibration, "maximum (2000)"));
}

TEST(MeasureCalibrationTest, WorkRampWithoutTimestampsSubtractsOverhead) {
  FakeWorkload workload("k", 16, 1'000'000, 1.0);
  // Wall only, 2 ms launch overhead: 256 takes 3.072 ms → ⌊256 × 10 / 3.072⌋ = 833. With the
  // overhead kept it would read 5.072 ms and grow to 504.
  FakeTimer timer([](Workload& w, uint32_t n) {
    return Sample{2.0 + 0.012 * static_cast<double>(w.Work()) * n, std::nullopt};
  });
  const Calibration calibration = Calibrate(workload, timer, 2.0, CalibrationOptions{});
  EXPECT_EQ(Works(calibration), (std::vector<uint64_t>{16, 64, 256, 833}));
  EXPECT_NEAR(calibration.work_probes[2].dispatch_ms, 3.072, 1e-9);
}

TEST(MeasureCalibrationTest, WorkRampGrowsFourfoldOnZeroReadings) {
  FakeWorkload workload("k", 16, 5000, 1.0);
  FakeTimer timer([](Workload&, uint32_t n) { return Sample{0.05 * n, 0.0}; });
  // The GPU reads 0 at every knob value: the ramp grows ×4 to the maximum. (Measuring would
  // then fail; calibration itself does not.)
  const Calibration calibration = Calibrate(workload, timer, 0.05, CalibrationOptions{});
  EXPECT_EQ(Works(calibration), (std::vector<uint64_t>{16, 64, 256, 1024, 4096, 5000}));
}

TEST(MeasureCalibrationTest, NonFiniteRampReadingThrowsGpuError) {
  FakeWorkload workload("k", 16, 5000, 1.0);
  FakeTimer timer([](Workload&, uint32_t) {
    return Sample{1.0, std::numeric_limits<double>::quiet_NaN()};
  });
  EXPECT_THROW(Calibrate(workload, timer, 0.05, CalibrationOptions{}), GpuError);
}

TEST(MeasureCalibrationTest, LinearityTimesThreePointsInInterleavedRoundsThenRestoresTheKnob) {
  FakeWorkload workload("k", 16, 1'000'000, 1.0);
  FakeTimer timer(LinearGpu(0.001));
  const Calibration calibration = Calibrate(workload, timer, 0.05, CalibrationOptions{});
  const std::vector<FakeTimer::Call>& calls = timer.calls();
  ASSERT_GE(calls.size(), 16u);
  // Six ramp probes (to 10000), one budget probe at work/4, then three rounds of
  // (work/4, work/2, work), all of one dispatch.
  for (size_t i = 6; i < 16; ++i) EXPECT_EQ(calls[i].dispatch_count, 1u);
  EXPECT_EQ(calls[6].work, 2500u);
  for (size_t round = 0; round < 3; ++round) {
    EXPECT_EQ(calls[7 + 3 * round].work, 2500u);
    EXPECT_EQ(calls[8 + 3 * round].work, 5000u);
    EXPECT_EQ(calls[9 + 3 * round].work, 10000u);
  }
  for (size_t i = 16; i < calls.size(); ++i) EXPECT_EQ(calls[i].work, 10000u);  // batches
  EXPECT_EQ(calibration.linearity.state, LinearityState::kLinear);
  ASSERT_TRUE(calibration.linearity.ratio.has_value());
  EXPECT_NEAR(*calibration.linearity.ratio, 2.0, 1e-9);
}

TEST(MeasureCalibrationTest, LargeFixedCostPerDispatchIsTakenOutBeforeJudging) {
  // 30 ms of thread start-up plus 1 ms per unit of work (a CPU device): the raw time grows
  // only ×1.35 from 16 to 32, yet the work-dependent part doubles.
  FakeWorkload workload("fixed-cost", 16, 1024, 64.0);
  FakeTimer timer([](Workload& w, uint32_t n) {
    double gpu_ms = (30.0 + static_cast<double>(w.Work())) * n;
    return Sample{gpu_ms + 0.05, gpu_ms};
  });
  const Calibration calibration = Calibrate(workload, timer, 0.05, CalibrationOptions{});
  EXPECT_EQ(calibration.work, 16u);
  EXPECT_EQ(calibration.linearity.state, LinearityState::kLinear) << calibration.linearity.reason;
  EXPECT_NEAR(*calibration.linearity.ratio, 2.0, 1e-9);
  EXPECT_TRUE(HasNoteContaining(calibration, "fixed cost of a dispatch"));
}

TEST(MeasureCalibrationTest, NoisyFlatKernelIsNotCorrectedIntoALinearOne) {
  // A kernel that takes 10 ms at any knob on a busy host (the CI failure of stop 5): the
  // minima of three tries came out 10, 11.5 and 14.2 ms. The fixed-cost model would read
  // 8.5 ms of fixed cost and a ×1.9 doubling; the lower pair's 1.5 ms growth is within the
  // points' noise (2 + 0.5 ms), so the raw times are judged: ×1.23, and even moved by their
  // noise (0.5 and 0.8 ms: ×1.32) below the band: suspect.
  FakeWorkload workload("noisy-flat", 16, 1024, 64.0);
  // Three rounds of (16, 32, 64): minima 10, 11.5, 14.2; next fastest 12, 12, 15.
  const std::vector<double> linearity_tries = {10.0, 11.5, 14.2, 12.0, 12.0,
                                               15.0, 12.5, 13.0, 16.0};
  int call = 0;
  FakeTimer timer([&](Workload&, uint32_t n) {
    // Call 0 is the ramp (10 ms at the minimum stops it), call 1 the budget probe, calls 2–10
    // the three rounds.
    const int index = call++ - 2;
    const double ms = index >= 0 && index < static_cast<int>(linearity_tries.size())
                          ? linearity_tries[index]
                          : 10.0;
    return Sample{ms * n + 0.05, ms * n};
  });
  const Calibration calibration = Calibrate(workload, timer, 0.05, CalibrationOptions{});
  EXPECT_EQ(calibration.linearity.state, LinearityState::kSuspect) << calibration.linearity.reason;
  ASSERT_TRUE(calibration.linearity.ratio.has_value());
  EXPECT_NEAR(*calibration.linearity.ratio, 14.2 / 11.5, 1e-9);
  EXPECT_TRUE(HasNoteContaining(calibration, "within the tries' noise"));
  EXPECT_FALSE(HasNoteContaining(calibration, "fixed cost of a dispatch"));
}

// 1 ms a unit of work at 16, 32 and 64, except that a busy host slows the 32 point's tries to
// 45, 60, 75, … ms for the first `slowed_rounds` rounds: the fastest at 45 ms, ×1.42 to 64 ms,
// while the next fastest try, 15 ms slower, shows how far off that minimum may be.
FakeTimer::Script SlowedMiddlePoint(uint32_t slowed_rounds) {
  return [slowed_rounds, call = 0](Workload& w, uint32_t n) mutable {
    // Call 0 is the ramp (16 ms at the minimum stops it), call 1 the budget probe, then rounds
    // of (16, 32, 64).
    const int index = call++ - 2;
    double ms = static_cast<double>(w.Work());
    if (index >= 0 && index % 3 == 1 && static_cast<uint32_t>(index / 3) < slowed_rounds) {
      ms = 45.0 + 15.0 * (index / 3);
    }
    return Sample{ms * n + 0.05, ms * n};
  };
}

TEST(MeasureCalibrationTest, NoisyPairGetsMoreTriesAndIsJudgedOnThem) {
  // The first three rounds are too noisy to call (the ratio moved by the noise reaches the
  // band); three more give the 32 point its true 32 ms: linear.
  FakeWorkload workload("noisy-sound", 16, 1024, 64.0);
  FakeTimer timer(SlowedMiddlePoint(3));
  const Calibration calibration = Calibrate(workload, timer, 0.05, CalibrationOptions{});
  EXPECT_EQ(calibration.linearity.state, LinearityState::kLinear) << calibration.linearity.reason;
  EXPECT_TRUE(HasNoteContaining(calibration, "re-measured for noise: 6 tries each"));
}

TEST(MeasureCalibrationTest, PersistentNoiseIsUncheckedNotSuspect) {
  // Every try of the 32 point slowed, through all retries (9 tries): too noisy to judge.
  FakeWorkload workload("noisy-sound", 16, 1024, 64.0);
  FakeTimer timer(SlowedMiddlePoint(1000));
  const Calibration calibration = Calibrate(workload, timer, 0.05, CalibrationOptions{});
  EXPECT_EQ(calibration.linearity.state, LinearityState::kUnchecked)
      << calibration.linearity.reason;
  EXPECT_TRUE(calibration.linearity.too_noisy);
  EXPECT_NE(calibration.linearity.reason.find("too noisy to judge"), std::string::npos)
      << calibration.linearity.reason;
  EXPECT_TRUE(HasNoteContaining(calibration, "re-measured for noise: 9 tries each"));
}

TEST(MeasureCalibrationTest, OneNoisyRampProbeDoesNotOutvoteTheDedicatedPair) {
  // A sound kernel (1 µs per unit of work) whose fourth ramp probe was slowed 3× by a busy
  // host: the ramp pair alone would look superlinear; the pair's minima are linear.
  FakeWorkload workload("noisy", 16, 1'000'000, 1.0);
  int call = 0;
  FakeTimer timer([&](Workload& w, uint32_t n) {
    double gpu_ms = 0.001 * static_cast<double>(w.Work()) * n * (++call == 4 ? 3.0 : 1.0);
    return Sample{gpu_ms + 0.05, gpu_ms};
  });
  const Calibration calibration = Calibrate(workload, timer, 0.05, CalibrationOptions{});
  EXPECT_EQ(calibration.linearity.state, LinearityState::kLinear) << calibration.linearity.reason;
}

TEST(MeasureCalibrationTest, KernelSlowAtItsMinimumIsJudgedByDoublingUpward) {
  // 20 ms a dispatch at any knob: the ramp stops at the minimum, where no half exists, so the
  // points are 16, 32 and 64 — and a time that ignores the work is still caught.
  FakeWorkload workload("slow-hoisted", 16, 1024, 64.0);
  FakeTimer timer([](Workload&, uint32_t n) { return Sample{20.0 * n + 0.05, 20.0 * n}; });
  const Calibration calibration = Calibrate(workload, timer, 0.05, CalibrationOptions{});
  EXPECT_EQ(calibration.work, 16u);
  EXPECT_EQ(workload.Work(), 16u);  // the knob is restored after the probes above it
  EXPECT_EQ(calibration.linearity.state, LinearityState::kSuspect);
  ASSERT_TRUE(calibration.linearity.ratio.has_value());
  EXPECT_NEAR(*calibration.linearity.ratio, 1.0, 1e-9);
}

TEST(MeasureCalibrationTest, NarrowKnobFallsBackToTwoPoints) {
  // Knob range [16, 40] has no room for 16, 32, 64: the pair (16, 32) is judged as measured.
  FakeWorkload workload("narrow", 16, 40, 64.0);
  FakeTimer timer(LinearGpu(1.0));
  const Calibration calibration = Calibrate(workload, timer, 0.05, CalibrationOptions{});
  EXPECT_EQ(calibration.work, 16u);
  EXPECT_EQ(calibration.linearity.state, LinearityState::kLinear);
  EXPECT_NEAR(*calibration.linearity.ratio, 2.0, 1e-9);
  bool probed_32 = std::any_of(timer.calls().begin(), timer.calls().end(),
                               [](const FakeTimer::Call& call) { return call.work == 32; });
  EXPECT_TRUE(probed_32);
}

TEST(MeasureCalibrationTest, VerySlowRowIsNotProbedPastTheBudget) {
  // 200 ms a dispatch at the knob's minimum: twice the work would exceed the 250 ms probe
  // budget, so linearity stays unchecked and nothing above the minimum is run.
  FakeWorkload workload("very-slow", 16, 1024, 64.0);
  FakeTimer timer(LinearGpu(12.5));
  const Calibration calibration = Calibrate(workload, timer, 0.05, CalibrationOptions{});
  EXPECT_EQ(calibration.linearity.state, LinearityState::kUnchecked);
  EXPECT_NE(calibration.linearity.reason.find("too slow"), std::string::npos)
      << calibration.linearity.reason;
  for (const FakeTimer::Call& call : timer.calls()) EXPECT_EQ(call.work, 16u);
}

TEST(MeasureCalibrationTest, SlowRowKeepsToTwoPointsWithinTheBudget) {
  // 100 ms at the minimum: 16, 32, 64 would cost too much, the pair (16, 32) does not.
  FakeWorkload workload("slow", 16, 1024, 64.0);
  FakeTimer timer(LinearGpu(100.0 / 16));
  const Calibration calibration = Calibrate(workload, timer, 0.05, CalibrationOptions{});
  EXPECT_EQ(calibration.linearity.state, LinearityState::kLinear) << calibration.linearity.reason;
  uint64_t largest = 0;
  for (const FakeTimer::Call& call : timer.calls()) largest = std::max(largest, call.work);
  EXPECT_EQ(largest, 32u);
}

TEST(MeasureCalibrationTest, LinearKernelSlowAtItsMinimumIsLinear) {
  FakeWorkload workload("slow-linear", 16, 1024, 64.0);
  FakeTimer timer(LinearGpu(1.0));  // 16 ms at the minimum knob
  const Calibration calibration = Calibrate(workload, timer, 0.05, CalibrationOptions{});
  EXPECT_EQ(calibration.work, 16u);
  EXPECT_EQ(calibration.linearity.state, LinearityState::kLinear);
  EXPECT_NEAR(*calibration.linearity.ratio, 2.0, 1e-9);
}

TEST(MeasureCalibrationTest, TooShortKernelIsUnchecked) {
  FakeWorkload workload("tiny", 16, 1024, 64.0);
  FakeTimer timer(LinearGpu(1e-5));  // 0.01 ms at the maximum knob
  const Calibration calibration = Calibrate(workload, timer, 0.05, CalibrationOptions{});
  EXPECT_EQ(calibration.linearity.state, LinearityState::kUnchecked);
  EXPECT_FALSE(calibration.linearity.ratio.has_value());
}

TEST(MeasureCalibrationTest, NoKnobSkipsRampAndLinearity) {
  FakeWorkload workload("fixed", 1.0);
  FakeTimer timer([](Workload&, uint32_t n) { return Sample{60.0 * n, std::nullopt}; });
  const Calibration calibration = Calibrate(workload, timer, 0.05, CalibrationOptions{});
  EXPECT_TRUE(calibration.work_probes.empty());
  EXPECT_EQ(calibration.work, 0u);
  EXPECT_EQ(calibration.linearity.state, LinearityState::kUnchecked);
  EXPECT_EQ(calibration.dispatches_per_sample, 1u);
  EXPECT_EQ(timer.calls().size(), 2u);  // one batch probe, one warm-up
}

TEST(MeasureCalibrationTest, BatchGrowsAtMostFourfoldUntilHalfTheTarget) {
  FakeWorkload workload("fixed", 1.0);
  FakeTimer timer([](Workload&, uint32_t n) { return Sample{0.01 * n, std::nullopt}; });
  const Calibration calibration = Calibrate(workload, timer, 0.0, CalibrationOptions{});
  // ×4 while that stays under the 60 ms aim; 4096 takes 40.96 ms → ⌊4096 × 60 / 40.96⌋.
  EXPECT_EQ(BatchSizes(calibration), (std::vector<uint32_t>{1, 4, 16, 64, 256, 1024, 4096, 6000}));
  EXPECT_EQ(calibration.dispatches_per_sample, 6000u);  // 60 ms ≥ 50 ms
  // Then exactly one warm-up batch of that size.
  ASSERT_EQ(timer.calls().size(), 9u);
  EXPECT_EQ(timer.calls().back().dispatch_count, 6000u);
}

TEST(MeasureCalibrationTest, BatchGrowthAimsAtTheTarget) {
  FakeWorkload workload("fixed", 1.0);
  FakeTimer timer([](Workload&, uint32_t n) { return Sample{10.0 * n, std::nullopt}; });
  const Calibration calibration = Calibrate(workload, timer, 0.0, CalibrationOptions{});
  // 10 ms → ×4; 40 ms → ×min(4, 0.6 × 100 / 40) = ×1.5; 60 ms ≥ 50 ms.
  EXPECT_EQ(BatchSizes(calibration), (std::vector<uint32_t>{1, 4, 6}));
  EXPECT_EQ(calibration.dispatches_per_sample, 6u);
}

TEST(MeasureCalibrationTest, BatchIsCappedAtTwoHundredThousandDispatches) {
  FakeWorkload workload("fast", 1.0);
  FakeTimer timer([](Workload&, uint32_t n) { return Sample{1e-6 * n, std::nullopt}; });
  const Calibration calibration = Calibrate(workload, timer, 0.0, CalibrationOptions{});
  EXPECT_EQ(BatchSizes(calibration),
            (std::vector<uint32_t>{1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 200000}));
  EXPECT_EQ(calibration.dispatches_per_sample, 200000u);
  EXPECT_TRUE(HasNoteContaining(calibration, "capped at 200000"));
}

TEST(MeasureCalibrationTest, BatchSizingStopsAfterTwelveProbes) {
  FakeWorkload workload("stuck", 1.0);
  // Every batch takes 40 ms whatever its size: growth ×1.5 a step, never reaching 50 ms.
  FakeTimer timer([](Workload&, uint32_t) { return Sample{40.0, std::nullopt}; });
  const Calibration calibration = Calibrate(workload, timer, 0.0, CalibrationOptions{});
  ASSERT_EQ(calibration.batch_probes.size(), 12u);
  EXPECT_EQ(calibration.dispatches_per_sample, calibration.batch_probes.back().dispatches);
  EXPECT_EQ(calibration.batch_probes[1].dispatches, 2u);  // max(1 + 1, ⌊1 × 1.5⌋)
  EXPECT_EQ(calibration.batch_probes[2].dispatches, 3u);  // ⌊2 × 1.5⌋
  EXPECT_TRUE(HasNoteContaining(calibration, "after 12 probes"));
}

TEST(MeasureCalibrationTest, ZeroBatchReadingGrowsFourfold) {
  FakeWorkload workload("fixed", 1.0);
  FakeTimer timer([](Workload&, uint32_t n) { return Sample{n < 64 ? 0.0 : 60.0, {}}; });
  const Calibration calibration = Calibrate(workload, timer, 0.0, CalibrationOptions{});
  EXPECT_EQ(BatchSizes(calibration), (std::vector<uint32_t>{1, 4, 16, 64}));
}

TEST(MeasureCalibrationTest, WarmupBatchesFollowOptions) {
  FakeWorkload workload("fixed", 1.0);
  FakeTimer timer([](Workload&, uint32_t n) { return Sample{60.0 * n, std::nullopt}; });
  CalibrationOptions options;
  options.warmup_batches = 3;
  Calibrate(workload, timer, 0.0, options);
  EXPECT_EQ(timer.calls().size(), 4u);
}

}  // namespace
}  // namespace refract::measure
