// The kernels suite's rules on hand-made rows: the roofline placement and the speed-ups.
#include "suites/kernels/kernels_rules.h"

#include <gtest/gtest.h>

#include <cmath>

namespace refract::suites::kernels {
namespace {

// A kernel row measured at `seconds` a dispatch, doing `flops` and moving `bytes`.
results::ResultRow KernelRow(const std::string& id, double flops, double bytes, double seconds) {
  results::ResultRow row;
  row.id = id;
  row.status = results::RowStatus::kOk;
  row.work_per_dispatch = bytes;  // a B/s row: its metric is bytes over time
  row.metric_value = bytes / seconds;
  row.roofline = results::Roofline{.flops = flops, .bytes = bytes, .intensity = flops / bytes};
  return row;
}

const RooflineCeilings kCeilings{.read_bandwidth_Bps = 4e12, .fma_flops = 60e12};

TEST(KernelsRoofline, AMemoryBoundRowIsPlacedAgainstTheReadBandwidth) {
  // 4 MB at 4 TB/s takes 1 µs at the roof; measured 2 µs: half way. 1 MFLOP at 60 TFLOP/s
  // would take 16.7 ns: memory sets the floor.
  std::vector<results::ResultRow> rows = {KernelRow("gemv/tuned", 1e6, 4e6, 2e-6)};
  PlaceOnRoofline(rows, kCeilings);
  const results::Roofline& roofline = *rows[0].roofline;
  EXPECT_EQ(roofline.bound, "read-bandwidth");
  EXPECT_EQ(roofline.ceiling, 4e12);
  EXPECT_NEAR(roofline.fraction, 0.5, 1e-12);
}

TEST(KernelsRoofline, AComputeBoundRowIsPlacedAgainstTheFmaRate) {
  // 6e9 FLOP at 60 TFLOP/s: 100 µs at the roof; 4e6 bytes: 1 µs. Measured 400 µs: a quarter.
  std::vector<results::ResultRow> rows = {KernelRow("gemm/tuned", 6e9, 4e6, 400e-6)};
  PlaceOnRoofline(rows, kCeilings);
  EXPECT_EQ(rows[0].roofline->bound, "fma");
  EXPECT_EQ(rows[0].roofline->ceiling, 60e12);
  EXPECT_NEAR(rows[0].roofline->fraction, 0.25, 1e-12);
}

TEST(KernelsRoofline, RowsWithoutARooflineOrCeilingsAreLeftAlone) {
  results::ResultRow ceiling_row;
  ceiling_row.id = "read-linear";
  ceiling_row.status = results::RowStatus::kOk;
  ceiling_row.metric_value = 4e12;
  std::vector<results::ResultRow> rows = {ceiling_row, KernelRow("k/tuned", 1, 4, 1)};
  PlaceOnRoofline(rows, RooflineCeilings{});  // no ceilings known
  EXPECT_FALSE(rows[0].roofline.has_value());
  EXPECT_EQ(rows[1].roofline->bound, "");
  EXPECT_TRUE(std::isnan(rows[1].roofline->fraction));
}

TEST(KernelsRoofline, ErrorRowsAreNotPlaced) {
  std::vector<results::ResultRow> rows = {KernelRow("k/tuned", 1e6, 4e6, 2e-6)};
  rows[0].status = results::RowStatus::kError;
  PlaceOnRoofline(rows, kCeilings);
  EXPECT_EQ(rows[0].roofline->bound, "");
}

TEST(KernelsSpeedup, TunedOverItsOwnBaseline) {
  std::vector<results::ResultRow> rows = {
      KernelRow("attention/q/decode/s1024/baseline", 1, 4e6, 100e-6),
      KernelRow("attention/q/decode/s1024/tuned", 1, 4e6, 4e-6),
      KernelRow("attention/q/decode/s4096/tuned", 1, 4e6, 4e-6),  // its baseline is missing
  };
  SetSpeedups(rows);
  EXPECT_TRUE(std::isnan(rows[0].speedup));
  EXPECT_NEAR(rows[1].speedup, 25.0, 1e-9);
  EXPECT_TRUE(std::isnan(rows[2].speedup));
}

TEST(KernelsSpeedup, AFailedBaselineGivesNoSpeedup) {
  std::vector<results::ResultRow> rows = {KernelRow("add/t1/baseline", 1, 4, 2),
                                          KernelRow("add/t1/tuned", 1, 4, 1)};
  rows[0].status = results::RowStatus::kError;
  SetSpeedups(rows);
  EXPECT_TRUE(std::isnan(rows[1].speedup));
}

TEST(KernelsRules, LoadedCeilingsWinOverTheRunsOwnAndAreSummarized) {
  results::ResultRow read;
  read.id = "read-linear";
  read.status = results::RowStatus::kOk;
  read.metric_value = 1e12;
  std::vector<results::ResultRow> rows = {read, KernelRow("k/tuned", 1e6, 4e6, 2e-6)};
  const KernelsRules rules(kCeilings);
  rules.Review(rows);
  EXPECT_EQ(rows[1].roofline->ceiling, 4e12);
  const results::Summary summary = rules.Summarize(rows);
  EXPECT_EQ(summary.at("roofline_read_bandwidth_Bps"), 4e12);
  EXPECT_EQ(summary.at("read_bandwidth_Bps"), 1e12);  // the run's own row, reported as measured
}

TEST(KernelsRules, WithoutLoadedCeilingsTheRunsOwnRowsAreUsed) {
  results::ResultRow read;
  read.id = "read-linear";
  read.status = results::RowStatus::kOk;
  read.metric_value = 2e12;
  results::ResultRow fma = read;
  fma.id = "f32-fma-vec4";
  fma.metric_value = 50e12;
  std::vector<results::ResultRow> rows = {read, fma, KernelRow("k/tuned", 1e6, 4e6, 4e-6)};
  const KernelsRules rules(std::nullopt);
  rules.Review(rows);
  EXPECT_EQ(rows[2].roofline->ceiling, 2e12);
  EXPECT_NEAR(rows[2].roofline->fraction, 0.5, 1e-12);
  EXPECT_EQ(rules.Summarize(rows).at("roofline_fma_flops"), 50e12);
}

}  // namespace
}  // namespace refract::suites::kernels
