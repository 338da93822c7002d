// What the values of a run document must mean, beyond their types: a reader that took a
// negative time, a count that does not match the samples, or two rows of one id would hand
// `compare`, `report` and `kernels --ceilings` a record that no run can produce.
#pragma once

#include <string>

#include "results/run_record.h"

namespace refract::results {

/// Throws refract::Error "invalid refract JSON: field 'results[2].times_ms[0]' of row 'x' …"
/// naming the first field of `record` whose value no run writes (docs/RESULTS.md, "What the
/// values mean"):
/// - every row id is unique and not empty;
/// - every time (times_ms, throttled_ms, the stats' min, mean, median, p10, p90, alternate
///   time_ms) is finite and above 0; stddev and ci95 are at least 0; stats.count is the number
///   of times_ms; the stats are null without samples and ordered min ≤ p10 ≤ median ≤ p90 ≤ the
///   largest sample with min the smallest (within 1e-9, the text's rounding);
/// - an ok row has a sample and a metric_value; a metric, speedup, roofline ceiling and fraction
///   are above 0 where present; work, flops, bytes, errors and tolerances are at least 0;
/// - wall_time_s is at least 0 and every summary value (rates, ratios, times) above 0.
/// `rows` are in document order, so row i is "results[i]".
void CheckRecordMeaning(const RunRecord& record);
/// The same checks of one row read on its own (a sweep journal's), named "<where>.<field>".
void CheckRowMeaning(const ResultRow& row, const std::string& where);

}  // namespace refract::results
