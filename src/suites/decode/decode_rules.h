// The decode rows' rules over their finished samples (pure: unit tests link them alone).
#pragma once

#include <optional>
#include <string>

#include "results/run_record.h"

namespace refract::suites::decode {

/// How far apart a decode or prefill row's p10 and p90 may lie (p90 / p10 − 1) before the row
/// is flagged `spread`: on the H100 a settled step's samples lie within ~3 %.
inline constexpr double kMaxSampleSpread = 0.10;

/// The `spread` flag's reason when `stats` (the row's samples, ms) has p90 past p10 by more
/// than kMaxSampleSpread; nothing when within it, or when p10 or p90 is not a positive number.
std::optional<std::string> SampleSpreadReason(const results::Statistics& stats);

}  // namespace refract::suites::decode
