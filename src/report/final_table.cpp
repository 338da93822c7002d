#include "report/final_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "report/row_format.h"
#include "report/text_table.h"
#include "report/units.h"

namespace refract::report {
namespace {

using results::ResultRow;
using results::RowStatus;

void WriteLines(std::ostream& out, const std::vector<std::string>& lines) {
  for (const std::string& line : lines) out << line << '\n';
}

void RenderFlagReasons(std::ostream& out, const results::RunRecord& record) {
  TextTable notes;
  for (const ResultRow& row : record.rows) {
    for (size_t i = 0; i < row.flags.size(); ++i) {
      std::string reason = i < row.flag_reasons.size() ? row.flag_reasons[i] : "";
      notes.AddOverflowRow({"  " + row.id, row.flags[i], reason});
    }
  }
  std::vector<std::string> lines = notes.Lines();
  if (lines.empty()) return;
  out << "\nFlags\n";
  WriteLines(out, lines);
}

}  // namespace

void RenderFinalTable(std::ostream& out, const results::RunRecord& record, TerminalStyle style,
                      std::string_view summary_title) {
  TextTable table({false, false, true, true, true, true, false, false, false});
  // "best" when every row's metric stands on its best time (best-of-N), else "time".
  const bool all_best = std::all_of(record.rows.begin(), record.rows.end(),
                                    [](const ResultRow& r) { return r.statistic != "median"; });
  std::vector<std::string> header = {"id",    "status",   "metric", all_best ? "best" : "time",
                                     "±ci95", "kept/thr", "timing", "stop",
                                     "flags"};
  for (std::string& cell : header) cell = Paint(cell, Color::kBold, style);
  table.AddRow(header);

  int ok = 0, skipped = 0, failed = 0;
  for (const ResultRow& row : record.rows) {
    ok += row.status == RowStatus::kOk;
    skipped += row.status == RowStatus::kSkipped;
    failed += row.status == RowStatus::kError;
    const std::string status = StatusText(row.status, style);
    if (row.status == RowStatus::kSkipped || row.status == RowStatus::kError) {
      table.AddOverflowRow({row.id, status, row.message});
      continue;
    }
    table.AddRow({row.id, status, MetricText(row), TimeText(row), CiPercentText(row.stats),
                  SamplesText(row), row.timing_method, row.stop_reason, FlagsText(row)});
  }
  WriteLines(out, table.Lines());
  RenderFlagReasons(out, record);

  out << fmt::format("\n{} rows in {}: {} ok, {} skipped, {} error\n", record.rows.size(),
                     FormatDuration(record.wall_time_s * 1000), ok, skipped, failed);

  if (record.summary.empty()) return;
  out << '\n' << Paint(std::string(summary_title), Color::kBold, style) << '\n';
  TextTable summary({false, true});
  for (const auto& [key, value] : record.summary) {
    summary.AddRow({"  " + key, FormatSummaryValue(key, value)});
  }
  WriteLines(out, summary.Lines());
}

}  // namespace refract::report
