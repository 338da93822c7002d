#include "report/sweep_lines.h"

#include <fmt/format.h>

#include <cmath>

#include "report/units.h"

namespace refract::report {

SweepLines::SweepLines(std::ostream& out, TerminalStyle style, uint64_t total, uint64_t done)
    : out_(out), style_(style), total_(total), done_(done) {}

void SweepLines::OnRow(const results::ResultRow& row) {
  if (!results::IsFinal(row.status)) return;
  ++done_;
  std::string line = fmt::format("[{}/{}] ", done_, total_);
  switch (row.status) {
    case results::RowStatus::kOk: {
      const double ms = row.stats.median;
      line += fmt::format("{}  {} (p10-p90 {} - {})  {}", row.id, FormatDuration(ms),
                          FormatDuration(row.stats.p10), FormatDuration(row.stats.p90),
                          FormatSi(row.metric_value, row.unit));
      auto best = best_ms_.find(row.category);
      if (best == best_ms_.end() || ms < best->second) {
        best_ms_[row.category] = ms;
        line += "  " + Paint("best so far", Color::kGreen, style_);
      }
      break;
    }
    case results::RowStatus::kSkipped:
      line += Paint(fmt::format("{}  skipped: {}", row.id, row.message), Color::kDim, style_);
      break;
    default:
      line += Paint(fmt::format("{}  error: {}", row.id, row.message), Color::kRed, style_);
  }
  out_ << line << "\n" << std::flush;
}

void RenderSweepSummary(std::ostream& out, const results::RunRecord& record, TerminalStyle style) {
  uint64_t ok = 0, skipped = 0, failed = 0;
  out << "\n" << Paint("Winners and cliffs", Color::kBold, style) << "\n";
  for (const results::ResultRow& row : record.rows) {
    ok += row.status == results::RowStatus::kOk;
    skipped += row.status == results::RowStatus::kSkipped;
    failed += row.status == results::RowStatus::kError;
    for (size_t i = 0; i < row.flags.size() && i < row.flag_reasons.size(); ++i) {
      const std::string& flag = row.flags[i];
      if (flag != "winner" && flag != "winner-default-limits" && flag != "cliff" &&
          flag != "unrepeatable") {
        continue;
      }
      const Color color = flag == "winner" || flag == "winner-default-limits" ? Color::kGreen
                                                                             : Color::kYellow;
      out << "  " << Paint(flag, color, style) << "  " << row.id << "  "
          << FormatDuration(row.stats.median) << "\n      " << row.flag_reasons[i] << "\n";
    }
  }
  out << fmt::format("{} configurations: {} verified and timed, {} skipped, {} failed\n",
                     record.rows.size(), ok, skipped, failed);
}

}  // namespace refract::report
