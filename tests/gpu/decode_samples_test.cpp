// A decode row's timed samples (SetSamples): tokens/s from their median, and the `spread` flag
// where they lie far apart (the rule itself: tests/unit/decode_rules_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "results/run_record.h"
#include "suites/decode/decode_steps.h"

namespace refract::suites::decode {
namespace {

bool HasFlag(const results::ResultRow& row, const std::string& flag) {
  return std::find(row.flags.begin(), row.flags.end(), flag) != row.flags.end();
}

TEST(DecodeSamples, SamplesThatSpreadFlagTheRowWithAReason) {
  // The H100's call of 2026-12-07 08:42: four samples at 0.98 ms a token, four at 0.66-0.71.
  results::ResultRow row;
  SetSamples(row, {0.978, 0.983, 0.981, 0.975, 0.709, 0.661, 0.661, 0.663}, 16, true);
  ASSERT_TRUE(HasFlag(row, "spread"));
  ASSERT_EQ(row.flags.size(), row.flag_reasons.size());
  EXPECT_NE(row.flag_reasons.back().find("run it again"), std::string::npos);
}

TEST(DecodeSamples, SettledSamplesLeaveTheRowUnflagged) {
  results::ResultRow row;
  SetSamples(row, {0.657, 0.655, 0.660, 0.662, 0.656, 0.658, 0.659, 0.661}, 16, true);
  EXPECT_FALSE(HasFlag(row, "spread"));
  EXPECT_NEAR(row.metric_value, 16 * 1000.0 / row.stats.median, 1e-9);
}

}  // namespace
}  // namespace refract::suites::decode
