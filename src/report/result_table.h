// The results as a plain table for other tools: CSV (--csv) and markdown (--markdown). One row
// per result with the columns of the terminal's final table plus one column per parameter.
#pragma once

#include <string>
#include <vector>

#include "report/report_model.h"

namespace refract::report {

/// How cells are written: raw values for machines (CSV), or as the terminal shows them.
enum class CellStyle { kRaw, kText };

/// Column titles and rows of cells.
struct ResultTable {
  std::vector<std::string> header;
  std::vector<bool> numeric;  ///< per column: right-aligned in markdown
  std::vector<std::vector<std::string>> rows;
};

/// The rows of `runs`, in order. Columns: "file" (only with more than one run), id, category,
/// status, then — raw: metric, unit, statistic, time_ms, ci95_pct, kept, throttled; text:
/// metric (with its unit), the time ("best" or "median", or "time" when mixed), ±ci95,
/// kept/thr — then timing, stop, flags, "speedup" (when a row has one), "roofline" (raw:
/// roofline_bound and roofline_fraction; when a row has one), message, and the params by name
/// (prefixed "param_" where a name is already a column). Raw numbers are the shortest text that
/// reads back to the same double; a missing one (NaN) is an empty cell.
ResultTable BuildResultTable(const std::vector<LabeledRun>& runs, CellStyle style);

/// BuildResultTable(runs, kRaw) as RFC 4180 CSV: comma-separated, a field with a comma, quote
/// or line break in double quotes (quotes doubled), lines ending in "\r\n".
std::string RenderCsv(const std::vector<LabeledRun>& runs);

/// Per run: a heading (label, command, device), a line of run metadata, the table of
/// BuildResultTable(that run, kText) in GitHub markdown ('|' escaped), the flags' reasons and
/// the run's summary values.
std::string RenderMarkdown(const std::vector<LabeledRun>& runs);

}  // namespace refract::report
