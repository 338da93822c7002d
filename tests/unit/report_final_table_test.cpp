#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "report/final_table.h"
#include "results/run_record.h"

namespace refract::report {
namespace {

using results::ResultRow;
using results::RowStatus;

constexpr TerminalStyle kPlain{.is_tty = false, .color = false};

results::RunRecord SmallRecord() {
  results::RunRecord record;
  record.wall_time_s = 8.25;

  ResultRow ok;
  ok.id = "f32-fma-scalar";
  ok.status = RowStatus::kOk;
  ok.times_ms = {1.25, 1.26, 1.27, 1.25, 1.3};
  ok.throttled_ms = {1.9};
  ok.stats.min = 1.25;
  ok.stats.mean = 1.266;
  ok.stats.ci95 = 0.02532;
  ok.stop_reason = "converged";
  ok.metric_value = 2.95e12;
  ok.unit = "FLOP/s";
  ok.timing_method = "gpu-timestamp";
  ok.flags = {"throttled"};
  ok.flag_reasons = {"1 sample over 1.2x the best"};

  ResultRow skipped;
  skipped.id = "f16-fma-vec4";
  skipped.status = RowStatus::kSkipped;
  skipped.message = "needs shader-f16";

  ResultRow error;
  error.id = "i32-div";
  error.status = RowStatus::kError;
  error.message = "the pass likely did no work";

  record.rows = {ok, skipped, error};
  return record;
}

std::string Render(const results::RunRecord& record, TerminalStyle style) {
  std::ostringstream out;
  RenderFinalTable(out, record, style, "Device ceilings");
  return out.str();
}

TEST(ReportFinalTable, OkSkippedAndErrorRows) {
  const std::string expected =
      "id              status         metric     best  ±ci95  kept/thr  timing         stop       "
      "flags\n"
      "f32-fma-scalar  ok       2.95 TFLOP/s  1.25 ms  ±2.0%       5/1  gpu-timestamp  converged  "
      "throttled\n"
      "f16-fma-vec4    skipped  needs shader-f16\n"
      "i32-div         error    the pass likely did no work\n"
      "\n"
      "Flags\n"
      "  f32-fma-scalar  throttled  1 sample over 1.2x the best\n"
      "\n"
      "3 rows in 8.25 s: 1 ok, 1 skipped, 1 error\n";
  EXPECT_EQ(Render(SmallRecord(), kPlain), expected);
}

TEST(ReportFinalTable, SummaryBlockWhenPresent) {
  results::RunRecord record = SmallRecord();
  record.rows.resize(1);
  record.rows[0].flags.clear();
  record.summary = {{"read_bandwidth_Bps", 4.43e12},
                     {"f32_flops", 6.45e13},
                     {"dp4a_ops", 6.12e11},
                     {"f16_over_f32_ratio", 2.0}};
  const std::string text = Render(record, kPlain);
  const std::string expected_tail =
      "1 rows in 8.25 s: 1 ok, 0 skipped, 0 error\n"
      "\n"
      "Device ceilings\n"
      "  dp4a_ops               612 GOP/s\n"
      "  f16_over_f32_ratio             2\n"
      "  f32_flops           64.5 TFLOP/s\n"
      "  read_bandwidth_Bps     4.43 TB/s\n";
  ASSERT_GE(text.size(), expected_tail.size());
  EXPECT_EQ(text.substr(text.size() - expected_tail.size()), expected_tail) << text;
}

TEST(ReportFinalTable, MedianRowsShowTheirMedianUnderTime) {
  results::RunRecord record = SmallRecord();
  record.rows.resize(1);
  record.rows[0].statistic = "median";
  record.rows[0].stats.median = 2.0;
  const std::string text = Render(record, kPlain);
  EXPECT_NE(text.find("time"), std::string::npos) << text;
  EXPECT_EQ(text.find(" best "), std::string::npos) << text;
  EXPECT_NE(text.find("2.00 ms"), std::string::npos) << text;
}

TEST(ReportFinalTable, ColorOnlyWhenAsked) {
  EXPECT_EQ(Render(SmallRecord(), kPlain).find('\x1b'), std::string::npos);
  const std::string colored = Render(SmallRecord(), TerminalStyle{.is_tty = true, .color = true});
  EXPECT_NE(colored.find("\x1b[32mok\x1b[0m"), std::string::npos);
  EXPECT_NE(colored.find("\x1b[31merror\x1b[0m"), std::string::npos);
  // Color codes do not shift the columns: without them the text is the plain table.
  std::string stripped;
  for (size_t i = 0; i < colored.size(); ++i) {
    if (colored[i] == '\x1b') {
      while (colored[i] != 'm') ++i;
      continue;
    }
    stripped += colored[i];
  }
  EXPECT_EQ(stripped, Render(SmallRecord(), kPlain));
}

}  // namespace
}  // namespace refract::report
