// Cell texts for a result row, shared by the live and the final table.
#pragma once

#include <string>

#include "report/terminal.h"
#include "results/run_record.h"

namespace refract::report {

/// The headline value with its unit, e.g. "2.95 TFLOP/s"; kMissing when not measured.
std::string MetricText(const results::ResultRow& row);

/// "best" or "median": which statistic of the samples the row's metric stands on.
std::string TimeLabel(const results::ResultRow& row);

/// That time per dispatch, e.g. "1.23 ms"; kMissing when not measured.
std::string TimeText(const results::ResultRow& row);

/// ci95 as a percentage of the mean, e.g. "±0.4%"; "±?" when there are samples but too few
/// to state an interval; kMissing when nothing was measured.
std::string CiPercentText(const results::Statistics& stats);

/// "kept/throttled" sample counts, e.g. "5/1".
std::string SamplesText(const results::ResultRow& row);

/// Comma-separated flags; "" when none.
std::string FlagsText(const results::ResultRow& row);

/// What the output check compared: "not run", "4096 values, exact" or "4096 values, max |err|
/// 1.5e-06 (tolerance 1e-05 + 0.0001·|x|)".
std::string VerificationText(const VerificationRecord& verification);

/// The row's speed over its baseline, e.g. "×2.41"; "" when it has none.
std::string SpeedupText(double speedup);

/// The row's status word, colored by status when `style.color`.
std::string StatusText(results::RowStatus status, TerminalStyle style);

}  // namespace refract::report
