#include "suites/decode/decode_rules.h"

#include <fmt/format.h>

#include <cmath>

namespace refract::suites::decode {

std::optional<std::string> SampleSpreadReason(const results::Statistics& stats) {
  if (!(stats.p10 > 0) || !std::isfinite(stats.p90) || !(stats.p90 > 0)) return std::nullopt;
  const double spread = stats.p90 / stats.p10 - 1;
  if (spread <= kMaxSampleSpread) return std::nullopt;
  return fmt::format(
      "the timed samples' p10–p90 spans {:.4g}–{:.4g} ms, {:.0f} % apart (more than {:.0f} %): "
      "the GPU's clocks or the host's pace changed during the run, so the median may not be the "
      "settled figure; run it again",
      stats.p10, stats.p90, 100 * spread, 100 * kMaxSampleSpread);
}

}  // namespace refract::suites::decode
