// The table printed when a run is over.
#pragma once

#include <ostream>
#include <string_view>

#include "report/terminal.h"
#include "results/run_record.h"

namespace refract::report {

/// Writes one line per row in the record's order, with the columns id, status, metric (SI, in
/// the row's unit), best time per dispatch, ± ci95 (% of the mean), samples (kept/throttled),
/// timing method, stop reason and flags; skipped and error rows show their message instead
/// of the measurement columns. Then the reasons for any flags, a summary line (row count, wall
/// time, ok/skipped/error counts) and, when record.summary is not empty, a block titled
/// `summary_title` (the ceilings suite: "Device ceilings") with each value formatted by
/// FormatSummaryValue. Colors only when style.color.
void RenderFinalTable(std::ostream& out, const results::RunRecord& record, TerminalStyle style,
                      std::string_view summary_title = "Summary");

}  // namespace refract::report
