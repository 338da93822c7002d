#include "report/row_format.h"

#include <fmt/format.h>

#include <cmath>

#include "base/lookup.h"
#include "report/units.h"

namespace refract::report {

std::string MetricText(const results::ResultRow& row) {
  return FormatSi(row.metric_value, row.unit);
}

std::string TimeLabel(const results::ResultRow& row) {
  return row.statistic == "median" ? "median" : "best";
}

std::string TimeText(const results::ResultRow& row) {
  return FormatDuration(row.statistic == "median" ? row.stats.median : row.stats.min);
}

std::string CiPercentText(const results::Statistics& stats) {
  // Samples but no interval (too few to state one): unknown, not absent.
  if (stats.count > 0 && !std::isfinite(stats.ci95)) return "±?";
  if (!std::isfinite(stats.ci95) || !std::isfinite(stats.mean) || stats.mean == 0) {
    return std::string(kMissing);
  }
  return fmt::format("±{:.1f}%", 100 * stats.ci95 / stats.mean);
}

std::string SamplesText(const results::ResultRow& row) {
  return fmt::format("{}/{}", row.times_ms.size(), row.throttled_ms.size());
}

std::string FlagsText(const results::ResultRow& row) {
  std::string text;
  for (const std::string& flag : row.flags) text += (text.empty() ? "" : ",") + flag;
  return text;
}

std::string VerificationText(const VerificationRecord& verification) {
  if (verification.elements == 0) return "not run";
  if (verification.max_abs_error == 0 && verification.tolerance.IsExact()) {
    return fmt::format("{} values, exact", verification.elements);
  }
  return fmt::format("{} values, max |err| {:.2g} (tolerance {:g} + {:g}·|x|)",
                     verification.elements, verification.max_abs_error,
                     verification.tolerance.absolute, verification.tolerance.relative);
}

std::string SpeedupText(double speedup) {
  return std::isfinite(speedup) ? fmt::format("×{:.2f}", speedup) : "";
}

std::string StatusText(results::RowStatus status, TerminalStyle style) {
  using results::RowStatus;
  static constexpr Entry<RowStatus, Color> kColors[] = {{RowStatus::kRunning, Color::kCyan},
                                                        {RowStatus::kOk, Color::kGreen},
                                                        {RowStatus::kSkipped, Color::kYellow},
                                                        {RowStatus::kError, Color::kRed}};
  return Paint(results::ToString(status), Lookup(kColors, status, Color::kNone), style);
}

}  // namespace refract::report
