// The device-ceilings summary and the impossible-rate check, on hand-made rows.
#include <gtest/gtest.h>

#include "suites/ceilings/ceilings_rules.h"

namespace refract::suites::ceilings {
namespace {

results::ResultRow OkRow(std::string id, std::string category, double metric) {
  results::ResultRow row;
  row.id = std::move(id);
  row.category = std::move(category);
  row.status = results::RowStatus::kOk;
  row.metric_value = metric;
  return row;
}

TEST(CeilingsSummary, PeaksAndRatios) {
  std::vector<results::ResultRow> rows = {
      OkRow("read-linear", "bandwidth", 4e12),  OkRow("write-linear", "bandwidth", 3e12),
      OkRow("f32-fma-scalar", "compute", 5e13), OkRow("f32-fma-vec4", "compute", 6e13),
      OkRow("i32-mad-scalar", "compute", 3e13), OkRow("f32-sqrt", "compute", 1.5e13),
      OkRow("i8-dp4a", "compute", 5.7e13)};
  rows.push_back(OkRow("f16-fma-vec4", "compute", 9e13));
  rows.back().status = results::RowStatus::kSkipped;  // skipped rows never count
  std::map<std::string, double> summary = SummarizeCeilings(rows);
  EXPECT_DOUBLE_EQ(summary.at("read_bandwidth_Bps"), 4e12);
  EXPECT_DOUBLE_EQ(summary.at("write_bandwidth_Bps"), 3e12);
  EXPECT_DOUBLE_EQ(summary.at("f32_fma_flops"), 6e13);
  EXPECT_DOUBLE_EQ(summary.at("i32_mad_ops"), 3e13);
  EXPECT_DOUBLE_EQ(summary.at("i8_dp4a_ops"), 5.7e13);
  EXPECT_DOUBLE_EQ(summary.at("f32_sqrt_ratio"), 0.25);
  EXPECT_EQ(summary.count("f16_fma_flops"), 0u);
}

TEST(CeilingsSummary, ComputeRowFarAboveEveryPeakIsFlagged) {
  std::vector<results::ResultRow> rows = {
      OkRow("f32-fma-scalar", "compute", 5e13), OkRow("u32-shift", "compute", 9e13),
      OkRow("u32-reversebits", "compute", 1.2e14), OkRow("read-linear", "bandwidth", 4e14)};
  FlagImpossibleRates(rows);
  EXPECT_TRUE(rows[1].flags.empty());   // 1.8x: possible
  ASSERT_EQ(rows[2].flags.size(), 1u);  // 2.4x: impossible
  EXPECT_EQ(rows[2].flags[0], "suspect");
  EXPECT_NE(rows[2].flag_reasons[0].find("u32-reversebits"), std::string::npos);
  EXPECT_TRUE(rows[3].flags.empty());  // bandwidth rows are not ALU rows
}

TEST(CeilingsSummary, SuspectFiguresNeverBecomeCeilings) {
  results::ResultRow fma;
  fma.id = "f32-fma-scalar";
  fma.status = results::RowStatus::kOk;
  fma.metric_value = 1e12;
  results::ResultRow planted = fma;
  planted.id = "f32-fma-vec4";
  planted.metric_value = 9e15;
  planted.flags = {"suspect"};
  std::map<std::string, double> summary = SummarizeCeilings({fma, planted});
  EXPECT_DOUBLE_EQ(summary.at("f32_fma_flops"), 1e12);
}

TEST(CeilingsSummary, MathOpsNearTheFmaRateAreFlaggedImpossible) {
  std::vector<results::ResultRow> rows = {
      OkRow("f32-fma-scalar", "compute", 1e12),
      OkRow("f32-div", "compute", 0.95e12),   // the reciprocal-multiply trap: one FMA a step
      OkRow("f32-sqrt", "compute", 0.44e12),  // plausible: the most any real math row reached
      OkRow("f32-log", "compute", 0.76e12)};  // just past the 0.75 limit
  FlagImpossibleRates(rows);
  EXPECT_TRUE(rows[0].flags.empty());
  ASSERT_EQ(rows[1].flags.size(), 1u);
  EXPECT_EQ(rows[1].flags[0], "suspect");
  EXPECT_NE(rows[1].flag_reasons[0].find("0.95x the device's peak f32_fma_flops"),
            std::string::npos)
      << rows[1].flag_reasons[0];
  EXPECT_TRUE(rows[2].flags.empty());
  EXPECT_EQ(rows[3].flags, std::vector<std::string>{"suspect"});
  EXPECT_EQ(SummarizeCeilings(rows).count("f32_div_ratio"), 0u);
  EXPECT_NEAR(SummarizeCeilings(rows).at("f32_sqrt_ratio"), 0.44, 1e-12);
}

TEST(CeilingsSummary, ConversionsMayReachTheFmaRateButNotBeatIt) {
  std::vector<results::ResultRow> rows = {
      OkRow("f32-fma-scalar", "compute", 1e12),
      OkRow("f32-f16-convert", "compute", 0.98e12),  // folded into the FMAs: possible
      OkRow("i32-f32-convert", "compute", 1.3e12)};
  FlagImpossibleRates(rows);
  EXPECT_TRUE(rows[1].flags.empty());
  EXPECT_TRUE(rows[2].flags.empty());  // an i32 row is judged against i32_mad_ops: none here
  rows.push_back(OkRow("i32-mad-scalar", "compute", 1e12));
  FlagImpossibleRates(rows);
  EXPECT_EQ(rows[2].flags, std::vector<std::string>{"suspect"});
}

TEST(CeilingsSummary, MathRowsAreJudgedAgainstTheirOwnTypesPeakNotTheFastest) {
  // As on lavapipe, which emulates f16: the f16 peak is a quarter of the f32 one. f16-sqrt at
  // 0.9x the f16 peak is impossible for its type, though far below the fastest (f32) peak.
  std::vector<results::ResultRow> rows = {
      OkRow("f32-fma-vec4", "compute", 4e12), OkRow("f16-fma-vec4", "compute", 1e12),
      OkRow("f16-sqrt", "compute", 0.9e12), OkRow("f32-sqrt", "compute", 0.9e12)};
  FlagImpossibleRates(rows);
  EXPECT_EQ(rows[2].flags, std::vector<std::string>{"suspect"});
  ASSERT_FALSE(rows[2].flag_reasons.empty());
  EXPECT_NE(rows[2].flag_reasons[0].find("0.90x the device's peak f16_fma_flops"),
            std::string::npos)
      << rows[2].flag_reasons[0];
  EXPECT_TRUE(rows[3].flags.empty());  // 0.23x the f32 peak: plausible
}

}  // namespace
}  // namespace refract::suites::ceilings
