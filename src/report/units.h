// Human-readable numbers: SI prefixes, durations, and the values of RunRecord::summary.
#pragma once

#include <string>
#include <string_view>

namespace refract::report {

/// "—", what every formatter shows for a value that is NaN (not measured).
inline constexpr std::string_view kMissing = "—";

/// `value` scaled to an SI prefix (p n µ m, none, k M G T P E) and rounded to `significant`
/// digits, then " " and the prefix glued to `unit`: 4.43e12, "B/s" → "4.43 TB/s";
/// 6.45e13, "FLOP/s" → "64.5 TFLOP/s"; 999.96, "B" → "1.00 kB". Zero is "0 unit", infinity
/// "inf unit", NaN kMissing. Values beyond the prefixes keep the nearest one.
std::string FormatSi(double value, std::string_view unit, int significant = 3);

/// A duration given in milliseconds, in s / ms / µs / ns with 3 significant digits
/// ("12.3 ms", "850 µs"); from 1000 s on, whole seconds ("1234 s"). NaN → kMissing.
std::string FormatDuration(double ms);

/// A RunRecord::summary value, its unit taken from the key's suffix: "_Bps" → B/s,
/// "_flops" → FLOP/s, "_ops" → OP/s (all through FormatSi); "_ratio" and any other key → a
/// plain number with 3 significant digits.
std::string FormatSummaryValue(std::string_view key, double value);

}  // namespace refract::report
