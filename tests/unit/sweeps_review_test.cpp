// The sweep review on hand-made rows: the flags and summary a results document gets (winners
// with their margins and speed-ups, never a row that failed or was refused; the default-limits
// winner; cliffs with their cause; twin readings that did not repeat), and the grid's expansion.
#include <gtest/gtest.h>

#include <algorithm>

#include "ops/axis.h"
#include "suites/sweeps/sweep_review.h"

namespace refract::suites::sweeps {
namespace {

using results::ResultRow;
using results::RowStatus;

ResultRow Row(const std::string& id, const std::string& role, int64_t wg, double median_ms,
              RowStatus status = RowStatus::kOk) {
  ResultRow row{.id = "reduction/sum/" + id, .category = "reduction/sum", .status = status};
  row.params = {{"sweep", "reduction"}, {"problem", "sum"}, {"role", role}, {"wg", wg}};
  if (status == RowStatus::kOk) {
    row.stats.median = median_ms;
    row.work_per_dispatch = 1e6;
    row.metric_value = row.work_per_dispatch / median_ms;
  } else {
    row.message = status == RowStatus::kError ? "3 of 8 outputs disagree" : "over the limit";
  }
  return row;
}

bool Has(const ResultRow& row, const std::string& flag) {
  return std::find(row.flags.begin(), row.flags.end(), flag) != row.flags.end();
}

std::string Reason(const ResultRow& row, const std::string& flag) {
  for (size_t i = 0; i < row.flags.size(); ++i) {
    if (row.flags[i] == flag) return row.flag_reasons[i];
  }
  return "";
}

const std::map<std::string, SweepReading> kReduction = {{"reduction", {.main_axis = "wg"}}};

TEST(SweepReview, TheFastestVerifiedRowWinsWithItsMarginAndSpeedups) {
  std::vector<ResultRow> rows = {Row("wg=64", "grid", 64, 2.0),
                                 Row("wg=128", "grid", 128, 1.0),
                                 Row("wg=256", "grid", 256, 1.25),
                                 Row("wg=512", "grid", 512, 0.1, RowStatus::kError),
                                 Row("wg=1024", "grid", 1024, 0.1, RowStatus::kSkipped),
                                 Row("default", "default", 256, 1.5),
                                 Row("seed", "seed", 64, 3.0)};
  const results::Summary summary = ReviewSweepRows(rows, kReduction).summary;
  EXPECT_TRUE(Has(rows[1], "winner"));
  for (size_t i : {0u, 2u, 3u, 4u, 5u, 6u}) EXPECT_FALSE(Has(rows[i], "winner")) << rows[i].id;
  const std::string reason = Reason(rows[1], "winner");
  EXPECT_NE(reason.find("the runner-up 25.0 % slower"), std::string::npos) << reason;
  EXPECT_NE(reason.find("1.50x the built-in default, 3.00x the seed's"), std::string::npos)
      << reason;
  EXPECT_DOUBLE_EQ(summary.at("reduction/sum: winner over default"), 1.5);
  EXPECT_DOUBLE_EQ(summary.at("reduction/sum: winner over seed"), 3.0);
  EXPECT_DOUBLE_EQ(summary.at("reduction: configurations"), 7);
  EXPECT_DOUBLE_EQ(summary.at("reduction: measured"), 5);
}

TEST(SweepReview, ARowOverTheDefaultLimitsIsMarkedAndASecondWinnerKept) {
  std::vector<ResultRow> rows = {Row("wg=256", "grid", 256, 2.0),
                                 Row("wg=1024", "grid", 1024, 1.0)};
  rows[1].params["over_default_limits"] = "the sum needs 1024 invocations; defaults allow 256";
  ReviewSweepRows(rows, kReduction);
  EXPECT_TRUE(Has(rows[1], "over-default-limits"));
  EXPECT_NE(Reason(rows[1], "over-default-limits").find("defaults allow 256"), std::string::npos);
  EXPECT_TRUE(Has(rows[1], "winner"));
  EXPECT_FALSE(Has(rows[1], "winner-default-limits"));
  EXPECT_TRUE(Has(rows[0], "winner-default-limits"));
  EXPECT_FALSE(Has(rows[0], "over-default-limits"));
}

TEST(SweepReview, NothingVerifiedMeansNoWinnerAndNoZeroInTheSummary) {
  std::vector<ResultRow> rows = {Row("wg=64", "grid", 64, 0.1, RowStatus::kError),
                                 Row("wg=128", "grid", 128, 0.1, RowStatus::kSkipped)};
  const results::Summary summary = ReviewSweepRows(rows, kReduction).summary;
  EXPECT_FALSE(Has(rows[0], "winner"));
  EXPECT_FALSE(Has(rows[1], "winner"));
  EXPECT_FALSE(summary.contains("reduction: measured"));
  for (const auto& [key, value] : summary) EXPECT_GT(value, 0) << key;
}

// The default and a grid row of the same configuration (the op's axes, param "axes") read 1.5x
// apart: both are flagged and the spread summarised; within 10 % (noise) nothing is.
TEST(SweepReview, TwinReadingsOfOneConfigurationFarApartAreUnrepeatable) {
  auto with_axes = [](ResultRow row) {
    row.params[kAxesParam] = "wg";
    return row;
  };
  std::vector<ResultRow> rows = {with_axes(Row("wg=64", "grid", 64, 3.0)),
                                 with_axes(Row("wg=128", "grid", 128, 1.0)),
                                 with_axes(Row("default", "default", 64, 2.0))};
  const results::Summary summary = ReviewSweepRows(rows, kReduction).summary;
  EXPECT_TRUE(Has(rows[0], "unrepeatable"));
  EXPECT_TRUE(Has(rows[2], "unrepeatable"));
  EXPECT_FALSE(Has(rows[1], "unrepeatable"));  // another configuration
  EXPECT_NE(Reason(rows[2], "unrepeatable").find("1.50x apart"), std::string::npos)
      << Reason(rows[2], "unrepeatable");
  EXPECT_DOUBLE_EQ(summary.at("reduction/sum: twin spread"), 1.5);

  std::vector<ResultRow> close = {with_axes(Row("wg=64", "grid", 64, 2.1)),
                                  with_axes(Row("default", "default", 64, 2.0))};
  const results::Summary calm = ReviewSweepRows(close, kReduction).summary;
  EXPECT_FALSE(Has(close[0], "unrepeatable"));
  EXPECT_FALSE(Has(close[1], "unrepeatable"));
  EXPECT_FALSE(calm.contains("reduction/sum: twin spread"));
}

// Bandwidth: sizes along x, no winners; the knee where the best falls below 80 % of any smaller
// size's is the cliff, its cause the cache the buffer left.
TEST(SweepReview, ABandwidthKneeIsACliffAtTheFirstSizePastTheCache) {
  std::vector<ResultRow> rows;
  const std::vector<std::pair<int64_t, double>> sizes = {
      {1 << 20, 10e12}, {2 << 20, 10.5e12}, {4 << 20, 9e12}, {8 << 20, 4e12}, {16 << 20, 3.9e12}};
  for (const auto& [bytes, rate] : sizes) {
    ResultRow row{.id = "bandwidth/copy/" + std::to_string(bytes),
                  .category = "bandwidth/copy",
                  .status = RowStatus::kOk};
    row.params = {{"sweep", "bandwidth"}, {"role", "grid"}, {"bytes", bytes}};
    row.work_per_dispatch = static_cast<double>(bytes);
    row.stats.median = static_cast<double>(bytes) / rate;
    rows.push_back(row);
  }
  const results::Summary summary =
      ReviewSweepRows(rows, {{"bandwidth",
                              {.main_axis = "bytes", .cliff_threshold = 0.8, .has_winners = false}}})
          .summary;
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(Has(rows[i], "cliff"), i == 3) << rows[i].id;
    EXPECT_FALSE(Has(rows[i], "winner"));
  }
  const std::string reason = Reason(rows[3], "cliff");
  EXPECT_NE(reason.find("38 % of the best"), std::string::npos) << reason;
  EXPECT_NE(reason.find("it fit at 4096 KiB, not at 8192 KiB"), std::string::npos) << reason;
  EXPECT_DOUBLE_EQ(summary.at("bandwidth: cliffs"), 1);
}

// A drop at an x whose fast configurations failed is not blamed on the axis.
TEST(SweepReview, ACliffWhereConfigurationsFailedNamesThemNotTheAxis) {
  auto two_at = [](int64_t wg, double ms, RowStatus second) {
    return std::vector<ResultRow>{
        Row("items=1:wg=" + std::to_string(wg), "grid", wg, ms),
        Row("items=8:wg=" + std::to_string(wg), "grid", wg, ms / 4, second)};
  };
  for (const RowStatus status : {RowStatus::kOk, RowStatus::kError, RowStatus::kSkipped}) {
    SCOPED_TRACE(std::string(results::ToString(status)));
    std::vector<ResultRow> rows = two_at(64, 1.0, RowStatus::kOk);
    for (ResultRow& row : two_at(256, 4.0, status)) rows.push_back(row);
    ReviewSweepRows(rows, kReduction);
    const bool cliff = status != RowStatus::kOk;  // measured, wg 256's best is as good
    const size_t at = 2;                             // items=1:wg=256, the best measured there
    EXPECT_EQ(Has(rows[at], "cliff"), cliff);
    if (!cliff) continue;
    const std::string reason = Reason(rows[at], "cliff");
    EXPECT_NE(reason.find("1 of the 2 configurations at wg = 256 failed or were skipped"),
              std::string::npos)
        << reason;
    EXPECT_EQ(reason.find("invocations a workgroup"), std::string::npos) << reason;
  }
  // With every configuration at the x measured, the axis's cause stays.
  std::vector<ResultRow> rows = {Row("wg=64", "grid", 64, 1.0), Row("wg=256", "grid", 256, 4.0)};
  ReviewSweepRows(rows, kReduction);
  EXPECT_NE(Reason(rows[1], "cliff").find("likely invocations a workgroup"), std::string::npos)
      << Reason(rows[1], "cliff");
}

TEST(SweepReview, ASweepItIsNotToldOfIsLeftAlone) {
  std::vector<ResultRow> rows = {Row("wg=64", "grid", 64, 1.0)};
  const SweepReview review = ReviewSweepRows(rows, {});
  EXPECT_TRUE(review.summary.empty());
  EXPECT_TRUE(review.problems.empty());
  EXPECT_TRUE(rows[0].flags.empty());
}

TEST(SweepGrid, TheProductOfTheAxesGridsLastFastestWithOverrides) {
  const std::vector<ops::Axis> axes = {
      ops::WorkgroupAxis("256", {64, 256}, {64}),
      ops::CountAxis("vpt", "vec4 an invocation", "1", 8, {1, 2, 4}, {1}),
      ops::FlagAxis("subgroups", "1: subgroupAdd", "0"),  // grid 0, 1
      ops::WorkgroupAxis("256", {64, 256}, {64})};        // a repeated name counts once
  const std::vector<ops::Settings> full = ops::GridOf(axes, false);
  ASSERT_EQ(full.size(), 12u);
  EXPECT_EQ(full[0], (ops::Settings{{"wg", 64}, {"vpt", 1}, {"subgroups", 0}}));
  EXPECT_EQ(full[1], (ops::Settings{{"wg", 64}, {"vpt", 1}, {"subgroups", 1}}));
  EXPECT_EQ(full[2], (ops::Settings{{"wg", 64}, {"vpt", 2}, {"subgroups", 0}}));
  EXPECT_EQ(full[11], (ops::Settings{{"wg", 256}, {"vpt", 4}, {"subgroups", 1}}));
  // Quick: the quick values; an axis without quick values keeps its grid.
  EXPECT_EQ(ops::GridOf(axes, true).size(), 2u);
  // An override fixes an axis, or (no values) leaves it to the op's rule.
  const std::vector<ops::Settings> fixed =
      ops::GridOf(axes, false, {{"vpt", {8}}, {"subgroups", {}}});
  ASSERT_EQ(fixed.size(), 2u);
  EXPECT_EQ(fixed[1], (ops::Settings{{"wg", 256}, {"vpt", 8}}));
}

}  // namespace
}  // namespace refract::suites::sweeps
