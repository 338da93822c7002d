#include "report/result_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "report/model_json.h"
#include "report/row_format.h"
#include "report/units.h"

namespace refract::report {
namespace {

using results::ResultRow;
using results::RowStatus;

std::string Raw(double value) { return std::isfinite(value) ? fmt::format("{}", value) : ""; }

bool Measured(const ResultRow& row) {
  return row.status == RowStatus::kOk || row.status == RowStatus::kRunning;
}

std::string Joined(const std::vector<std::string>& items, const char* separator) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string MarkdownCell(const std::string& text) {
  std::string cell;
  for (char c : text) {
    if (c == '|') {
      cell += "\\|";
    } else if (c == '\n' || c == '\r') {
      cell += ' ';
    } else {
      cell += c;
    }
  }
  return cell;
}

std::string MarkdownLine(const std::vector<std::string>& cells) {
  std::string line = "|";
  for (const std::string& cell : cells) line += " " + MarkdownCell(cell) + " |";
  return line + "\n";
}

}  // namespace

ResultTable BuildResultTable(const std::vector<LabeledRun>& runs, CellStyle style) {
  const bool raw = style == CellStyle::kRaw;
  bool any_speedup = false, any_roofline = false, all_best = true;
  std::set<std::string> param_names;
  for (const LabeledRun& run : runs) {
    for (const ResultRow& row : run.record.rows) {
      any_speedup = any_speedup || std::isfinite(row.speedup);
      any_roofline = any_roofline || row.roofline.has_value();
      all_best = all_best && row.statistic != "median";
      for (const auto& [name, value] : row.params) param_names.insert(name);
    }
  }
  ResultTable table;
  auto column = [&](std::string title, bool numeric) {
    table.header.push_back(std::move(title));
    table.numeric.push_back(numeric);
  };
  const bool with_file = runs.size() > 1;
  if (with_file) column("file", false);
  column("id", false);
  column("category", false);
  column("status", false);
  if (raw) {
    for (const char* title :
         {"metric", "unit", "statistic", "time_ms", "ci95_pct", "kept", "throttled"}) {
      column(title, std::string(title) != "unit" && std::string(title) != "statistic");
    }
  } else {
    column("metric", true);
    column(all_best ? "best" : "time", true);
    column("±ci95", true);
    column("kept/thr", true);
  }
  column("timing", false);
  column("stop", false);
  column("flags", false);
  if (any_speedup) column("speedup", true);
  if (any_roofline && raw) {
    column("roofline_bound", false);
    column("roofline_fraction", true);
  } else if (any_roofline) {
    column("roofline", false);
  }
  column("message", false);
  const std::set<std::string> fixed(table.header.begin(), table.header.end());
  for (const std::string& name : param_names)
    column(fixed.count(name) ? "param_" + name : name, false);

  for (size_t f = 0; f < runs.size(); ++f) {
    for (const ResultRow& row : runs[f].record.rows) {
      const bool measured = Measured(row);
      std::vector<std::string> cells;
      if (with_file) cells.push_back(runs[f].label);
      cells.push_back(row.id);
      cells.push_back(row.category);
      cells.push_back(std::string(results::ToString(row.status)));
      if (raw) {
        const double ci = row.stats.ci95 / row.stats.mean * 100;
        cells.insert(
            cells.end(),
            {Raw(row.metric_value), row.unit, row.statistic, Raw(HeadlineTimeMs(row)), Raw(ci),
             std::to_string(row.times_ms.size()), std::to_string(row.throttled_ms.size())});
      } else if (measured) {
        cells.insert(cells.end(),
                     {MetricText(row), TimeText(row), CiPercentText(row.stats), SamplesText(row)});
      } else {
        cells.insert(cells.end(), {"", "", "", ""});
      }
      cells.push_back(row.timing_method);
      cells.push_back(row.stop_reason);
      cells.push_back(Joined(row.flags, raw ? ";" : ", "));
      if (any_speedup) cells.push_back(raw ? Raw(row.speedup) : SpeedupText(row.speedup));
      if (any_roofline) {
        const double fraction = row.roofline ? row.roofline->fraction : results::kNoValue;
        const std::string bound = row.roofline ? row.roofline->bound : "";
        if (raw) {
          cells.push_back(bound);
          cells.push_back(Raw(fraction));
        } else {
          cells.push_back(
              std::isfinite(fraction) ? fmt::format("{:.0f}% of {}", 100 * fraction, bound) : "");
        }
      }
      cells.push_back(row.message);
      for (const std::string& name : param_names) cells.push_back(ParamText(row, name));
      table.rows.push_back(std::move(cells));
    }
  }
  return table;
}

std::string RenderCsv(const std::vector<LabeledRun>& runs) {
  const ResultTable table = BuildResultTable(runs, CellStyle::kRaw);
  std::string csv;
  auto line = [&](const std::vector<std::string>& cells) {
    for (size_t i = 0; i < cells.size(); ++i) csv += (i ? "," : "") + CsvField(cells[i]);
    csv += "\r\n";
  };
  line(table.header);
  for (const auto& row : table.rows) line(row);
  return csv;
}

std::string RenderMarkdown(const std::vector<LabeledRun>& runs) {
  std::string md;
  for (const LabeledRun& run : runs) {
    const results::RunRecord& r = run.record;
    if (!md.empty()) md += "\n";
    md += fmt::format("## {}: refract {} on {}\n\n", run.label, r.command, r.device.device);
    md += fmt::format("{} {}, {} ({}), driver {}; started {}, {}, seed {}\n\n", r.tool,
                      r.tool_version, r.dawn_package, r.device.backend, r.device.description,
                      r.started_at, FormatDuration(r.wall_time_s * 1000), r.seed);
    const ResultTable table = BuildResultTable({run}, CellStyle::kText);
    md += MarkdownLine(table.header);
    std::string rule = "|";
    for (bool numeric : table.numeric) rule += numeric ? " ---: |" : " --- |";
    md += rule + "\n";
    for (const auto& row : table.rows) md += MarkdownLine(row);
    std::string reasons;
    for (const ResultRow& row : r.rows) {
      for (size_t i = 0; i < row.flags.size(); ++i) {
        std::string reason = i < row.flag_reasons.size() ? row.flag_reasons[i] : "";
        // Reasons usually start with their flag ("suspect: …"); do not say it twice.
        if (reason.rfind(row.flags[i] + ":", 0) != 0) reason = row.flags[i] + ": " + reason;
        reasons += fmt::format("- `{}` {}\n", row.id, MarkdownCell(reason));
      }
    }
    if (!reasons.empty()) md += "\nFlags:\n\n" + reasons;
    if (!r.summary.empty()) {
      md += "\n| summary | value |\n| --- | ---: |\n";
      for (const auto& [key, value] : r.summary) {
        md += MarkdownLine({key, FormatSummaryValue(key, value)});
      }
    }
  }
  return md;
}

}  // namespace refract::report
