#include "report/sweep_lines.h"

#include <fmt/format.h>

#include <cmath>
#include <map>

#include "report/units.h"

namespace refract::report {

SweepLines::SweepLines(std::ostream& out, TerminalStyle style, uint64_t total,
                       const std::vector<results::ResultRow>& done)
    : out_(out), style_(style), total_(total), done_(done.size()) {
  for (const results::ResultRow& row : done) Best(row);
}

bool SweepLines::Best(const results::ResultRow& row) {
  if (row.status != results::RowStatus::kOk) return false;
  auto best = best_ms_.find(row.category);
  if (best != best_ms_.end() && !(row.stats.median < best->second)) return false;
  best_ms_[row.category] = row.stats.median;
  return true;
}

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
      if (Best(row)) line += "  " + Paint("best so far", Color::kGreen, style_);
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
  struct Tally {
    uint64_t ok = 0, skipped = 0, failed = 0;
  };
  std::map<std::string, Tally> problems;  // by category, the sweep's rows only
  out << "\n" << Paint("Winners and cliffs", Color::kBold, style) << "\n";
  for (const results::ResultRow& row : record.rows) {
    ok += row.status == results::RowStatus::kOk;
    skipped += row.status == results::RowStatus::kSkipped;
    failed += row.status == results::RowStatus::kError;
    Tally& tally = problems[row.category];
    tally.ok += row.status == results::RowStatus::kOk;
    tally.skipped += row.status == results::RowStatus::kSkipped;
    tally.failed += row.status == results::RowStatus::kError;
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
  for (const auto& [category, tally] : problems) {
    if (tally.ok > 0) continue;
    out << "  " << Paint("no winner", Color::kRed, style) << "  " << category << "\n      "
        << NoWinnerReason(tally.failed, tally.skipped) << "\n";
  }
  out << fmt::format("{} configurations: {} verified and timed, {} skipped, {} failed\n",
                     record.rows.size(), ok, skipped, failed);
}

std::string NoWinnerReason(uint64_t failed, uint64_t skipped) {
  if (skipped == 0) {
    return fmt::format("every configuration failed ({}): see their messages", failed);
  }
  if (failed == 0) return fmt::format("every configuration was skipped ({})", skipped);
  return fmt::format("no configuration was verified and timed: {} failed, {} skipped", failed,
                     skipped);
}

}  // namespace refract::report
