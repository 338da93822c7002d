// Run comparison: a synthetic pair of runs for each verdict, and the rows that cannot be
// compared.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "measure/statistics.h"
#include "results/run_comparison.h"

namespace refract::results {
namespace {

double HeadlineTime(const ResultRow& row) {
  return row.statistic == "min" ? row.stats.min : row.stats.median;
}

/// An ok row with `times` as its kept samples and the statistics measure/ computes of them.
ResultRow Row(const std::string& id, const std::vector<double>& times,
              const std::string& statistic = "median") {
  ResultRow row;
  row.id = id;
  row.category = "compute";
  row.params = {{"n", 1024}};
  row.status = RowStatus::kOk;
  row.statistic = statistic;
  row.times_ms = times;
  const measure::Statistics s = measure::Summarize(times);
  row.stats = {.count = s.count,
               .min = s.min,
               .mean = s.mean,
               .median = s.median,
               .stddev = s.stddev,
               .ci95 = s.ci95,
               .p10 = s.p10,
               .p90 = s.p90};
  row.unit = "FLOP/s";
  row.metric_value = 1e9 / HeadlineTime(row);
  return row;
}

/// `count` samples around `center` [ms], spread evenly over ±`half_width` (a fraction).
std::vector<double> Samples(double center, double half_width, int count = 25) {
  std::vector<double> times;
  for (int i = 0; i < count; ++i) {
    const double f = count == 1 ? 0 : -1 + 2.0 * i / (count - 1);
    times.push_back(center * (1 + half_width * f));
  }
  return times;
}

RunRecord MakeRun(std::vector<ResultRow> rows) {
  RunRecord record;
  record.device.device = "llvmpipe";
  record.rows = std::move(rows);
  return record;
}

RowComparison CompareOne(const ResultRow& base, const ResultRow& next, double threshold) {
  const Comparison c = CompareRuns(MakeRun({base}), MakeRun({next}), {.threshold = threshold});
  EXPECT_EQ(c.rows.size(), 1u);
  return c.rows.empty() ? RowComparison{} : c.rows[0];
}

TEST(RunComparison, LargeButNoisyChangeIsNoisy) {
  // +20 % in the median, but each run spreads ±30 %: the noise is 24 % ((p90 − p10)/2 median).
  const RowComparison c = CompareOne(Row("r", Samples(10, 0.3)), Row("r", Samples(12, 0.3)), 0.05);
  EXPECT_NEAR(c.ratio, 1.2, 1e-12);
  EXPECT_NEAR(c.noise, 0.24, 1e-12);
  EXPECT_EQ(c.verdict, Verdict::kNoisy) << c.reason;
  EXPECT_NE(c.reason.find("noise"), std::string::npos) << c.reason;
}

TEST(RunComparison, SmallCleanChangeUnderTheThresholdIsSame) {
  const RowComparison c =
      CompareOne(Row("r", Samples(10, 0.001)), Row("r", Samples(10.2, 0.001)), 0.05);
  EXPECT_NEAR(c.ratio, 1.02, 1e-12);
  EXPECT_EQ(c.verdict, Verdict::kSame) << c.reason;
  EXPECT_TRUE(std::isnan(c.p_value));  // not tested: below the threshold
}

TEST(RunComparison, CleanThreePercentAboveOnePercentThresholdIsSlower) {
  const RowComparison c =
      CompareOne(Row("r", Samples(10, 0.002)), Row("r", Samples(10.3, 0.002)), 0.01);
  EXPECT_EQ(c.verdict, Verdict::kSlower) << c.reason;
  EXPECT_LT(c.p_value, 1e-6);
  EXPECT_NEAR(c.base_spread, 0.0016, 1e-12);
}

TEST(RunComparison, CleanThreePercentFasterIsFaster) {
  const RowComparison c =
      CompareOne(Row("r", Samples(10.3, 0.002)), Row("r", Samples(10, 0.002)), 0.01);
  EXPECT_EQ(c.verdict, Verdict::kFaster) << c.reason;
}

TEST(RunComparison, ChangePastTheNoiseThatTheUTestDoesNotConfirmIsNoisy) {
  // A clean base and a scattered new run: the medians differ by 5.6 % (past the 2 % threshold
  // and the clean run's noise), but two of the new samples are faster than every base sample:
  // U = 10 of 25, p = 0.69.
  const ResultRow base = Row("r", {10.00, 10.01, 10.02, 10.03, 10.04});
  const ResultRow next = Row("r", {8, 9, 10.6, 12, 13});
  const RowComparison c = CompareOne(base, next, 0.02);
  EXPECT_GT(c.ratio - 1, 0.02);
  EXPECT_GT(c.ratio - 1, c.noise);
  EXPECT_GT(c.p_value, 0.05);
  EXPECT_EQ(c.verdict, Verdict::kNoisy) << c.reason;
  EXPECT_NE(c.reason.find("U test"), std::string::npos) << c.reason;
}

TEST(RunComparison, TooFewSamplesForTheTestAreCalledByThresholdAndNoise) {
  const RowComparison c = CompareOne(Row("r", Samples(10, 0.001, 3), "min"),
                                     Row("r", Samples(11, 0.001, 3), "min"), 0.05);
  EXPECT_EQ(c.statistic, "min");
  EXPECT_EQ(c.verdict, Verdict::kSlower) << c.reason;
  EXPECT_TRUE(std::isnan(c.p_value));
}

TEST(RunComparison, MixedStatisticsCompareMedians) {
  const RowComparison c =
      CompareOne(Row("r", {1, 2, 3}, "min"), Row("r", {1, 2, 3}, "median"), 0.05);
  EXPECT_EQ(c.statistic, "median");
  EXPECT_DOUBLE_EQ(c.base_ms, 2);
}

TEST(RunComparison, RowsOnOneSideOrUnmeasuredAreListed) {
  ResultRow changed_params = Row("shape", Samples(1, 0.01));
  ResultRow changed_params_new = changed_params;
  changed_params_new.params["n"] = 2048;
  ResultRow failed = Row("failed", Samples(1, 0.01));
  failed.status = RowStatus::kError;
  failed.message = "verification failed";
  const RunRecord base = MakeRun({Row("kept", Samples(1, 0.01)), Row("gone", Samples(1, 0.01)),
                                  changed_params, Row("failed", Samples(1, 0.01))});
  const RunRecord next = MakeRun(
      {Row("kept", Samples(1, 0.01)), Row("added", Samples(1, 0.01)), changed_params_new, failed});
  const Comparison c = CompareRuns(base, next, {});
  ASSERT_EQ(c.rows.size(), 1u);
  EXPECT_EQ(c.rows[0].id, "kept");
  ASSERT_EQ(c.only_in_base.size(), 2u);
  EXPECT_EQ(c.only_in_base[0].id, "gone");
  EXPECT_EQ(c.only_in_base[1].id, "shape");
  ASSERT_EQ(c.only_in_new.size(), 2u);
  EXPECT_EQ(c.only_in_new[0].id, "added");
  EXPECT_EQ(c.only_in_new[1].id, "shape");
  ASSERT_EQ(c.not_measured.size(), 1u);
  EXPECT_NE(c.not_measured[0].note.find("new: error (verification failed)"), std::string::npos)
      << c.not_measured[0].note;
  EXPECT_EQ(c.SummaryLine(),
            "1 rows compared: 0 faster, 0 slower, 1 same, 0 noisy; 2 only in base, 2 only in "
            "new, 1 not measured");
}

TEST(RunComparison, RelativeSpreadIsTheHalfWidthOfTheCentralEightyPercent) {
  ResultRow row = Row("r", {8, 9, 10, 11, 12});
  // p10 = 8.4, p90 = 11.6, median 10: (11.6 − 8.4) / 20.
  EXPECT_NEAR(RelativeSpread(row), 0.16, 1e-12);
  row.stats = {};  // missing statistics: computed from the samples
  EXPECT_NEAR(RelativeSpread(row), 0.16, 1e-12);
  EXPECT_EQ(RelativeSpread(Row("one", {5})), 0);
}

TEST(RunComparison, AdaptersDifferByIdentityNotByDriver) {
  DeviceDescription a;
  a.vendor = "nvidia";
  a.device = "NVIDIA H200";
  a.vendor_id = 0x10de;
  a.description = "driver 550";
  DeviceDescription b = a;
  b.description = "driver 560";
  EXPECT_TRUE(SameAdapter(a, b));
  b.device = "NVIDIA H100";
  EXPECT_FALSE(SameAdapter(a, b));
  EXPECT_NE(AdapterName(a).find("0x10de"), std::string::npos) << AdapterName(a);
}

TEST(RunComparison, AcrossDevicesRowsMatchByIdAndNoteParamDifferences) {
  ResultRow base = Row("k", Samples(2, 0.01));
  ResultRow next = Row("k", Samples(1, 0.01));
  next.params["copies"] = 4;
  const std::vector<CrossDeviceRow> rows = CompareAcrossDevices(MakeRun({base}), MakeRun({next}));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_NEAR(rows[0].ratio, 0.5, 1e-12);
  EXPECT_EQ(rows[0].params_note, "copies (none)→4");
}

}  // namespace
}  // namespace refract::results
