// The kernels suite's rules over its measured rows (pure: no GPU): each kernel row placed on the
// device's roofline, each tuned row's speed-up over its baseline, and the summary.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/suite_rules.h"
#include "results/run_record.h"

namespace refract::suites::kernels {

/// The two ceilings a roofline stands on.
struct RooflineCeilings {
  double read_bandwidth_Bps = results::kNoValue;  ///< [B/s]
  double fma_flops = results::kNoValue;           ///< peak f32 multiply-add rate [FLOP/s]
};

/// The ceilings a `refract ceilings` run found (its summary's read_bandwidth_Bps and
/// f32_fma_flops); either is NaN when missing.
RooflineCeilings CeilingsFromSummary(const results::Summary& summary);

/// Fills every ok row that carries a roofline (the kernel rows, whose benchmark described its
/// FLOP and bytes): floor = max(flops / fma_flops, bytes / read_bandwidth_Bps), `bound` the
/// larger term ("fma" or "read-bandwidth"), `ceiling` that term's rate, `fraction` = floor /
/// the row's measured time (work_per_dispatch / metric_value). A ceiling that is missing leaves
/// the rows' bound empty and fraction NaN.
void PlaceOnRoofline(std::vector<results::ResultRow>& rows, const RooflineCeilings& ceilings);

/// Sets `speedup` on every ok tuned row whose baseline row is ok: the row ids of the kernels
/// suite end in "/tuned" and "/baseline", and the pair shares the rest; speedup = the tuned
/// row's metric over the baseline's (the same work, so the inverse ratio of their times).
void SetSpeedups(std::vector<results::ResultRow>& rows);

/// The suite's hooks. Ceilings rows run in the same session (read-linear, f32 FMA rows) are
/// reviewed by the ceilings suite's rules and give the roofline's ceilings, unless `loaded`
/// ceilings (from --ceilings FILE) were given.
class KernelsRules final : public bench::SuiteRules {
 public:
  explicit KernelsRules(std::optional<RooflineCeilings> loaded) : loaded_(loaded) {}
  void Review(std::vector<results::ResultRow>& rows) const override;
  /// The ceilings summary of the session's ceilings rows (when measured), plus the two the
  /// roofline used: "roofline_read_bandwidth_Bps" and "roofline_fma_flops".
  results::Summary Summarize(const std::vector<results::ResultRow>& rows) const override;

 private:
  RooflineCeilings Ceilings(const std::vector<results::ResultRow>& rows) const;
  std::optional<RooflineCeilings> loaded_;
};

}  // namespace refract::suites::kernels
