// The decode rows' `spread` flag: a row whose timed samples' p10 and p90 lie more than 10 %
// apart says so, with both figures; a settled row and one without the figures say nothing.
#include "suites/decode/decode_rules.h"

#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <string>

namespace refract::suites::decode {
namespace {

results::Statistics Spread(double p10, double p90) {
  results::Statistics stats;
  stats.count = 8;
  stats.p10 = p10;
  stats.p90 = p90;
  stats.median = (p10 + p90) / 2;
  return stats;
}

TEST(DecodeRules, SamplesSpreadPastTenPercentAreFlaggedWithTheirFigures) {
  // The H100's call of 2026-12-07 08:42: four samples at 0.98 ms a token, four at 0.66-0.71.
  const std::optional<std::string> reason = SampleSpreadReason(Spread(0.6610, 0.9818));
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("0.661–0.9818 ms"), std::string::npos) << *reason;
  EXPECT_NE(reason->find("49 % apart"), std::string::npos) << *reason;
}

TEST(DecodeRules, SamplesWithinTenPercentAreNotFlagged) {
  EXPECT_FALSE(SampleSpreadReason(Spread(0.6535, 0.6631)));  // a settled step, 1.5 %
  EXPECT_FALSE(SampleSpreadReason(Spread(1.0, 1.0 + 0.99 * kMaxSampleSpread)));
  EXPECT_TRUE(SampleSpreadReason(Spread(1.0, 1.0 + 1.01 * kMaxSampleSpread)));
}

TEST(DecodeRules, MissingOrNonPositiveFiguresAreNotFlagged) {
  EXPECT_FALSE(SampleSpreadReason(results::Statistics{}));  // NaN: no samples
  EXPECT_FALSE(SampleSpreadReason(Spread(0.0, 1.0)));
  EXPECT_FALSE(SampleSpreadReason(Spread(-1.0, 1.0)));
  EXPECT_FALSE(SampleSpreadReason(Spread(1.0, std::numeric_limits<double>::infinity())));
}

}  // namespace
}  // namespace refract::suites::decode
