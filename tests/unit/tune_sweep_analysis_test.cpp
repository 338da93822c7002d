// The sweep's verdicts on hand-made trials: which configuration wins (never one that was not
// measured), by how much, over the reference, within WebGPU's default limits; where the cliffs are.
#include <gtest/gtest.h>

#include <cmath>

#include "tune/sweep_analysis.h"

namespace refract::tune {
namespace {

Trial Measured(uint32_t wg, double median_ms, bool within_defaults = true) {
  return {.settings = {{"wg", wg}},
          .median_ms = median_ms,
          .p10_ms = median_ms * 0.99,
          .p90_ms = median_ms * 1.01,
          .rate = 1 / median_ms,
          .within_default_limits = within_defaults};
}

Trial NotMeasured(uint32_t wg, TrialOutcome outcome, const std::string& reason) {
  Trial trial{.settings = {{"wg", wg}}, .outcome = outcome, .reason = reason};
  trial.median_ms = 0.001;  // a figure where none may be: must not count
  return trial;
}

TEST(TuneWinners, TheFastestMeasuredWinsWithItsMarginAndSpeedup) {
  const std::vector<Trial> trials = {Measured(64, 2.0), Measured(128, 1.0), Measured(256, 1.25),
                                     NotMeasured(512, TrialOutcome::kFailed, "wrong by 3 %"),
                                     NotMeasured(1024, TrialOutcome::kRejected, "over the limit")};
  const Winners winners = PickWinners(trials, ops::Settings{{"wg", 64}});
  ASSERT_TRUE(winners.overall);
  EXPECT_EQ(winners.overall->trial, 1u);
  EXPECT_DOUBLE_EQ(winners.overall->margin, 0.25);
  EXPECT_DOUBLE_EQ(winners.overall->speedup_over_reference, 2.0);
}

TEST(TuneWinners, AWrongOrRefusedConfigurationNeverWinsHoweverFast) {
  const std::vector<Trial> trials = {NotMeasured(512, TrialOutcome::kFailed, "wrong"),
                                     NotMeasured(1024, TrialOutcome::kRejected, "limits")};
  const Winners winners = PickWinners(trials);
  EXPECT_FALSE(winners.overall);
  EXPECT_FALSE(winners.within_default_limits);
}

TEST(TuneWinners, ADefaultLimitsWinnerIsKeptBesideTheOverallOne) {
  const std::vector<Trial> trials = {Measured(64, 3.0), Measured(256, 2.0),
                                     Measured(1024, 1.0, /*within_defaults=*/false)};
  const Winners winners = PickWinners(trials, ops::Settings{{"wg", 64}});
  ASSERT_TRUE(winners.overall && winners.within_default_limits);
  EXPECT_EQ(winners.overall->trial, 2u);
  EXPECT_EQ(winners.within_default_limits->trial, 1u);
  EXPECT_DOUBLE_EQ(winners.within_default_limits->margin, 0.5);  // 3.0 over 2.0
  EXPECT_DOUBLE_EQ(winners.within_default_limits->speedup_over_reference, 1.5);
}

TEST(TuneWinners, OneMeasuredTrialHasNoMarginAndAnAbsentReferenceNoSpeedup) {
  const Winners winners = PickWinners({Measured(64, 1.0)}, ops::Settings{{"wg", 32}});
  ASSERT_TRUE(winners.overall);
  EXPECT_TRUE(std::isnan(winners.overall->margin));
  EXPECT_TRUE(std::isnan(winners.overall->speedup_over_reference));
}

// A bandwidth-like sweep: the best rate at each x (bytes).
std::vector<Trial> Curve(const std::vector<std::pair<double, double>>& points) {
  std::vector<Trial> trials;
  for (const auto& [x, rate] : points) {
    Trial fast = Measured(64, 1 / rate);
    fast.x = x;
    Trial slow = Measured(128, 2 / rate);  // a worse configuration at the same x
    slow.x = x;
    trials.push_back(slow);
    trials.push_back(fast);
  }
  return trials;
}

TEST(TuneCliffs, AFallBelowTheThresholdOfAnyEarlierBestIsOneCliffWithItsDepthAndCause) {
  const double mib = 1 << 20;
  // 100 up to 32 MiB, 90 at 64 MiB (not a cliff at 0.80), 40 past the 50 MiB cache, 38 after.
  const std::vector<Trial> trials =
      Curve({{8 * mib, 100}, {32 * mib, 100}, {64 * mib, 90}, {128 * mib, 40}, {256 * mib, 38}});
  const std::vector<Cliff> cliffs =
      FindCliffs(trials, {.threshold = 0.80, .cache_bytes = 100 * mib});
  ASSERT_EQ(cliffs.size(), 1u);
  EXPECT_EQ(cliffs[0].x, 128 * mib);
  EXPECT_EQ(cliffs[0].before_x, 8 * mib);  // the first of the highest
  EXPECT_DOUBLE_EQ(cliffs[0].depth, 0.40);
  EXPECT_EQ(cliffs[0].cause, "the working set left the 100 MiB cache");
}

TEST(TuneCliffs, ARecoveryThenASecondFallIsASecondCliffAndFailuresAreSkipped) {
  std::vector<Trial> trials = Curve({{1, 100}, {2, 50}, {3, 100}, {4, 70}, {5, 72}});
  trials.push_back(NotMeasured(64, TrialOutcome::kFailed, "wrong"));  // x = 0, fast, wrong
  const std::vector<Cliff> cliffs = FindCliffs(trials);
  ASSERT_EQ(cliffs.size(), 2u);
  EXPECT_EQ(cliffs[0].x, 2);
  EXPECT_EQ(cliffs[1].x, 4);
  EXPECT_DOUBLE_EQ(cliffs[1].depth, 0.70);
  EXPECT_EQ(cliffs[1].cause, "");  // no cache size given: no cause claimed
}

TEST(TuneCliffs, AFlatOrRisingCurveHasNone) {
  EXPECT_TRUE(FindCliffs(Curve({{1, 10}, {2, 20}, {3, 19}, {4, 40}})).empty());
  EXPECT_TRUE(FindCliffs({}).empty());
}

}  // namespace
}  // namespace refract::tune
