// The ceilings suite's own rules over its measured rows: the device's ceilings (the summary)
// and the impossible-rate check. Pure: no GPU.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "bench/suite_rules.h"
#include "results/run_record.h"

namespace refract::suites::ceilings {

/// The device's ceilings from a run's rows: "read_bandwidth_Bps", "write_bandwidth_Bps", peak
/// FMA rate per type ("f32_fma_flops", "f16_fma_flops", "i32_mad_ops", "i8_dp4a_ops"), and
/// each math row's rate over its type's peak FMA rate ("<id>_ratio"). Only ok rows without a
/// suspect flag count: a suspect figure never becomes a ceiling.
std::map<std::string, double> SummarizeCeilings(const std::vector<results::ResultRow>& rows);

/// Flags `suspect` every ok row whose rate exceeds its type's peak FMA rate although its op
/// cannot be cheaper than an FMA (division, roots, transcendentals, conversions, bit ops,
/// branches): a hoisted or folded loop, not a fast GPU.
void FlagImpossibleRates(std::vector<results::ResultRow>& rows);

/// The two rules as the runner's hooks: Review flags impossible rates, Summarize gives the
/// device's ceilings.
class CeilingsRules final : public bench::SuiteRules {
 public:
  void Review(std::vector<results::ResultRow>& rows) const override { FlagImpossibleRates(rows); }
  results::Summary Summarize(const std::vector<results::ResultRow>& rows) const override {
    return SummarizeCeilings(rows);
  }
};

}  // namespace refract::suites::ceilings
