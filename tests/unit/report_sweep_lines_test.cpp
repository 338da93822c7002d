// What a sweep prints: "best so far" against every row finished, a resumed run's journal
// included, and a problem without a winner said so at the end instead of an empty heading.
#include "report/sweep_lines.h"

#include <gtest/gtest.h>

#include <sstream>

namespace refract::report {
namespace {

using results::ResultRow;
using results::RowStatus;

ResultRow Row(const std::string& category, const std::string& label, double median_ms,
              RowStatus status = RowStatus::kOk) {
  ResultRow row{.id = category + "/" + label, .category = category, .status = status};
  row.stats.median = median_ms;
  row.stats.p10 = median_ms;
  row.stats.p90 = median_ms;
  if (status == RowStatus::kError) row.message = "3 of 8 outputs disagree";
  if (status == RowStatus::kSkipped) row.message = "over the device's limits";
  return row;
}

const TerminalStyle kPlain{.is_tty = false, .color = false};

TEST(SweepLines, BestSoFarCountsTheRowsAResumedRunFoundInItsJournal) {
  std::ostringstream out;
  SweepLines lines(out, kPlain, 4, {Row("sum", "a", 1.0), Row("sum", "b", 2.0)});
  lines.OnRow(Row("sum", "c", 1.5));  // slower than the journal's best: no mark
  lines.OnRow(Row("sum", "d", 0.5));  // faster than every row so far
  const std::string text = out.str();
  const size_t c = text.find("[3/4] sum/c");
  const size_t d = text.find("[4/4] sum/d");
  ASSERT_NE(c, std::string::npos) << text;
  ASSERT_NE(d, std::string::npos) << text;
  EXPECT_EQ(text.substr(c, d - c).find("best so far"), std::string::npos) << text;
  EXPECT_NE(text.substr(d).find("best so far"), std::string::npos) << text;
}

TEST(SweepSummary, AProblemWithoutAVerifiedConfigurationSaysWhyItHasNoWinner) {
  results::RunRecord record;
  record.rows = {Row("failed", "a", 0, RowStatus::kError), Row("failed", "b", 0, RowStatus::kError),
                 Row("refused", "a", 0, RowStatus::kSkipped),
                 Row("mixed", "a", 0, RowStatus::kError), Row("mixed", "b", 0, RowStatus::kSkipped),
                 Row("fine", "a", 1.0)};
  record.rows.back().flags = {"winner"};
  record.rows.back().flag_reasons = {"winner: the fastest verified configuration of fine"};
  std::ostringstream out;
  RenderSweepSummary(out, record, kPlain);
  const std::string text = out.str();
  EXPECT_NE(text.find("no winner  failed\n      every configuration failed (2): see their "
                      "messages"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("no winner  refused\n      every configuration was skipped (1)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("no winner  mixed\n      no configuration was verified and timed: 1 "
                      "failed, 1 skipped"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("no winner  fine"), std::string::npos) << text;
  EXPECT_NE(text.find("winner  fine/a"), std::string::npos) << text;
}

}  // namespace
}  // namespace refract::report
