// The decode rows as the terminal shows them after `refract decode`'s final table: per row its
// tokens/s, step, dispatches and bounds, and the GPU time by kind (the report's decode section,
// report_model.h, as text).
#pragma once

#include <ostream>

#include "results/run_record.h"

namespace refract::report {

/// Writes a block per decode row of `record` (nothing when it has none).
void RenderDecodeSummary(std::ostream& out, const results::RunRecord& record);

}  // namespace refract::report
