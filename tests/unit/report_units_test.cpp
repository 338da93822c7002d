#include <gtest/gtest.h>

#include <cmath>

#include "report/units.h"

namespace refract::report {
namespace {

TEST(ReportFormatSi, ScalesToPrefixesWithThreeSignificantDigits) {
  EXPECT_EQ(FormatSi(4.43e12, "B/s"), "4.43 TB/s");
  EXPECT_EQ(FormatSi(6.45e13, "FLOP/s"), "64.5 TFLOP/s");
  EXPECT_EQ(FormatSi(6.12e11, "OP/s"), "612 GOP/s");
  EXPECT_EQ(FormatSi(92.4e9, "B/s"), "92.4 GB/s");
  EXPECT_EQ(FormatSi(1, "B"), "1.00 B");
  EXPECT_EQ(FormatSi(0.5, "s"), "500 ms");
  EXPECT_EQ(FormatSi(0.0123, "s"), "12.3 ms");
  EXPECT_EQ(FormatSi(8.5e-7, "s"), "850 ns");
  EXPECT_EQ(FormatSi(4.2e-6, "s"), "4.20 µs");
  EXPECT_EQ(FormatSi(3e-12, "s"), "3.00 ps");
  EXPECT_EQ(FormatSi(2.5e18, "B"), "2.50 EB");
}

TEST(ReportFormatSi, RoundingCarriesIntoTheNextPrefixOrDigit) {
  EXPECT_EQ(FormatSi(999.96, "B"), "1.00 kB");
  EXPECT_EQ(FormatSi(999.4, "B"), "999 B");
  EXPECT_EQ(FormatSi(99.96, "B"), "100 B");
  EXPECT_EQ(FormatSi(9.996e5, "B"), "1.00 MB");
}

TEST(ReportFormatSi, SpecialValues) {
  EXPECT_EQ(FormatSi(std::nan(""), "B/s"), "—");
  EXPECT_EQ(FormatSi(0, "B/s"), "0 B/s");
  EXPECT_EQ(FormatSi(-2.5e9, "OP/s"), "-2.50 GOP/s");
  EXPECT_EQ(FormatSi(INFINITY, "B/s"), "inf B/s");
  EXPECT_EQ(FormatSi(1234, "B", 2), "1.2 kB");
  EXPECT_EQ(FormatSi(1.5e21, "B"), "1500 EB");  // beyond the last prefix
}

TEST(ReportFormatSi, Durations) {
  EXPECT_EQ(FormatDuration(12.3), "12.3 ms");
  EXPECT_EQ(FormatDuration(0.85), "850 µs");
  EXPECT_EQ(FormatDuration(1234.0), "1.23 s");
  EXPECT_EQ(FormatDuration(60500.0), "60.5 s");
  EXPECT_EQ(FormatDuration(999'700.0), "1000 s");
  EXPECT_EQ(FormatDuration(1'234'000.0), "1234 s");
  EXPECT_EQ(FormatDuration(std::nan("")), "—");
}

TEST(ReportFormatSi, CeilingValuesByKeySuffix) {
  EXPECT_EQ(FormatSummaryValue("read_bandwidth_Bps", 4.43e12), "4.43 TB/s");
  EXPECT_EQ(FormatSummaryValue("f32_fma_flops", 6.45e13), "64.5 TFLOP/s");
  EXPECT_EQ(FormatSummaryValue("i8_dp4a_ops", 6.12e11), "612 GOP/s");
  EXPECT_EQ(FormatSummaryValue("f16_over_f32_ratio", 1.9876), "1.99");
  EXPECT_EQ(FormatSummaryValue("other", 12345.0), "1.23e+04");
  EXPECT_EQ(FormatSummaryValue("x_ratio", std::nan("")), "—");
}

}  // namespace
}  // namespace refract::report
