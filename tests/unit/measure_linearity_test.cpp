#include <gtest/gtest.h>

#include <vector>

#include "measure/linearity.h"

namespace refract::measure {
namespace {

TEST(MeasureLinearityTest, DoublingRatioNormalisesAnyWorkStep) {
  EXPECT_DOUBLE_EQ(DoublingRatio({16, 1.0}, {64, 4.0}), 2.0);    // linear over ×4
  EXPECT_NEAR(DoublingRatio({16, 1.0}, {64, 1.0}), 1.0, 1e-12);  // flat
  EXPECT_NEAR(DoublingRatio({100, 1.0}, {200, 3.0}), 3.0, 1e-12);
}

TEST(MeasureLinearityTest, LinearHalfFullPairIsLinear) {
  const LinearityVerdict verdict =
      JudgeLinearity({}, WorkProbe{64, 1.0}, WorkProbe{128, 2.0}, LinearityOptions{});
  EXPECT_EQ(verdict.state, LinearityState::kLinear);
  ASSERT_TRUE(verdict.ratio.has_value());
  EXPECT_DOUBLE_EQ(*verdict.ratio, 2.0);
  EXPECT_TRUE(verdict.reason.empty());
}

TEST(MeasureLinearityTest, FlatHalfFullPairIsSuspect) {
  const LinearityVerdict verdict =
      JudgeLinearity({}, WorkProbe{64, 1.0}, WorkProbe{128, 1.02}, LinearityOptions{});
  EXPECT_EQ(verdict.state, LinearityState::kSuspect);
  ASSERT_TRUE(verdict.ratio.has_value());
  EXPECT_NEAR(*verdict.ratio, 1.02, 1e-12);
  EXPECT_NE(verdict.reason.find("time ×1.02 for work ×2 (expected ≈2)"), std::string::npos)
      << verdict.reason;
  EXPECT_NE(verdict.reason.find("hoisted or folded"), std::string::npos) << verdict.reason;
}

TEST(MeasureLinearityTest, SuperlinearPairIsSuspect) {
  const LinearityVerdict verdict =
      JudgeLinearity({}, WorkProbe{64, 1.0}, WorkProbe{128, 3.0}, LinearityOptions{});
  EXPECT_EQ(verdict.state, LinearityState::kSuspect);
  EXPECT_NEAR(*verdict.ratio, 3.0, 1e-12);
  EXPECT_NE(verdict.reason.find("faster than work"), std::string::npos) << verdict.reason;
}

TEST(MeasureLinearityTest, BandEdgesAreInclusive) {
  EXPECT_EQ(JudgeLinearity({}, WorkProbe{64, 1.0}, WorkProbe{128, 1.5}, {}).state,
            LinearityState::kLinear);
  EXPECT_EQ(JudgeLinearity({}, WorkProbe{64, 1.0}, WorkProbe{128, 2.5}, {}).state,
            LinearityState::kLinear);
  EXPECT_EQ(JudgeLinearity({}, WorkProbe{64, 1.0}, WorkProbe{128, 1.49}, {}).state,
            LinearityState::kSuspect);
}

TEST(MeasureLinearityTest, TooShortIsUncheckedNotSuspect) {
  const LinearityVerdict verdict =
      JudgeLinearity({}, WorkProbe{64, 0.1}, WorkProbe{128, 0.1}, LinearityOptions{});
  EXPECT_EQ(verdict.state, LinearityState::kUnchecked);
  EXPECT_FALSE(verdict.ratio.has_value());
  EXPECT_NE(verdict.reason.find("linearity unchecked"), std::string::npos) << verdict.reason;
}

TEST(MeasureLinearityTest, GpuTimedDispatchesAreJudgedFromAShorterTime) {
  // 0.1–0.2 ms: too short for wall-clock times (a submit's overhead inside), long enough for
  // GPU timestamps (0.05 ms): a sound pair is linear, a flat one suspect.
  const WorkProbe half{64, 0.1, true}, full{128, 0.2, true}, flat{128, 0.1, true};
  EXPECT_EQ(JudgeLinearity({}, half, full, LinearityOptions{}).state, LinearityState::kLinear);
  EXPECT_EQ(JudgeLinearity({}, half, flat, LinearityOptions{}).state, LinearityState::kSuspect);
  const LinearityVerdict tiny =
      JudgeLinearity({}, WorkProbe{64, 0.02, true}, WorkProbe{128, 0.04, true}, {});
  EXPECT_EQ(tiny.state, LinearityState::kUnchecked);
  EXPECT_NE(tiny.reason.find("≥ 0.05 ms"), std::string::npos) << tiny.reason;
}

TEST(MeasureLinearityTest, FlatRampPairIsSuspectWithoutHalfCheck) {
  const std::vector<WorkProbe> ramp = {{4, 0.2}, {16, 0.6}, {64, 0.62}};
  const LinearityVerdict verdict = JudgeLinearity(ramp, std::nullopt, std::nullopt, {});
  EXPECT_EQ(verdict.state, LinearityState::kSuspect);
  EXPECT_NEAR(*verdict.ratio, DoublingRatio({16, 0.6}, {64, 0.62}), 1e-12);
  EXPECT_NE(verdict.reason.find("work 16→64"), std::string::npos) << verdict.reason;
}

TEST(MeasureLinearityTest, SmallRampStepsAreNotJudged) {
  // ×1.1 work for ×1.19 time would be ×3.5 per doubling: noise, not a finding.
  const std::vector<WorkProbe> ramp = {{1000, 8.0}, {1100, 9.5}};
  EXPECT_EQ(JudgeLinearity(ramp, std::nullopt, std::nullopt, {}).state, LinearityState::kUnchecked);
  LinearityOptions judge_all;
  judge_all.min_ramp_step = 1.0;
  EXPECT_EQ(JudgeLinearity(ramp, std::nullopt, std::nullopt, judge_all).state,
            LinearityState::kSuspect);
}

TEST(MeasureLinearityTest, LinearRampAndHalfCheckReportsTheHalfCheckRatio) {
  const std::vector<WorkProbe> ramp = {{16, 0.8}, {64, 3.2}, {128, 6.4}};
  const LinearityVerdict verdict =
      JudgeLinearity(ramp, WorkProbe{64, 3.3}, WorkProbe{128, 6.27}, LinearityOptions{});
  EXPECT_EQ(verdict.state, LinearityState::kLinear);
  EXPECT_NEAR(*verdict.ratio, 6.27 / 3.3, 1e-12);
}

}  // namespace
}  // namespace refract::measure
