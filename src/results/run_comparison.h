// Comparing two runs row by row: did each benchmark get faster, slower, stay the same, or is
// the difference lost in the runs' own noise? Pure logic on plain records (no GPU).
//
// The rule (docs/REPORTS.md has the reasoning):
// - rows are matched by id and params; a row's time is its headline statistic (the best time of
//   best-of-N rows, the median of fixed-count rows; the medians when the two rows differ);
// - change = new time / base time − 1; below the threshold it is SAME;
// - noise = the smaller of the two rows' relative spreads (nvbench's rule); a change within it
//   is NOISY: larger than the threshold, but not larger than what the runs scatter by;
// - a change past both is FASTER or SLOWER, confirmed where both rows kept at least
//   `min_samples` samples by a two-sided Mann–Whitney U test at `alpha` agreeing in direction;
//   unconfirmed, it is NOISY.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/device_description.h"
#include "results/run_record.h"

namespace refract::results {

/// What happened to one row between the base run and the new one.
enum class Verdict { kSame, kFaster, kSlower, kNoisy };

/// "SAME", "FASTER", "SLOWER" or "NOISY".
std::string_view ToString(Verdict verdict);

/// The knobs of the rule.
struct CompareOptions {
  double threshold = 0.05;  ///< smallest change worth calling [fraction of the base time]
  size_t min_samples = 5;   ///< both rows need this many kept samples for the U test
  double alpha = 0.05;      ///< the U test's significance level
};

/// The relative spread of a row's kept samples: (p90 − p10) / (2 · median), the half-width of
/// the central 80 % of the samples over their median [fraction]. For normally distributed samples
/// it is 1.28 σ/μ, nvbench's relative standard deviation scaled, but one slow outlier (a
/// preemption, a clock change) barely moves it. Taken from the row's stats, or from times_ms
/// when those are missing; 0 with fewer than 2 samples (no noise known).
double RelativeSpread(const ResultRow& row);

/// One row present and measured (status ok) in both runs.
struct RowComparison {
  std::string id;
  std::string category;
  Params params;
  std::string statistic;      ///< "min" or "median": which time was compared
  double base_ms = kNoValue;  ///< the base run's time [ms per dispatch]
  double new_ms = kNoValue;   ///< the new run's time [ms per dispatch]
  double ratio = kNoValue;    ///< new_ms / base_ms (above 1: slower)
  double base_spread = 0;     ///< RelativeSpread of the base row [fraction]
  double new_spread = 0;      ///< RelativeSpread of the new row [fraction]
  double noise = 0;           ///< min(base_spread, new_spread) [fraction]
  double p_value = kNoValue;  ///< Mann–Whitney two-sided p; NaN when not tested
  Verdict verdict = Verdict::kSame;
  std::string reason;  ///< why, in words, e.g. "+3.1% > 1% threshold and 0.4% noise"
};

/// A row that cannot be compared: present in one run only, or not measured in one of them.
struct UnmatchedRow {
  std::string id;
  Params params;
  std::string note;  ///< e.g. "only in base", "new: error (needs shader-f16)"
};

/// Everything CompareRuns found.
struct Comparison {
  std::vector<RowComparison> rows;  ///< in the base run's order
  std::vector<UnmatchedRow> only_in_base;
  std::vector<UnmatchedRow> only_in_new;
  std::vector<UnmatchedRow> not_measured;  ///< in both, but not ok in one or both
  CompareOptions options;                  ///< the rule's knobs it was made with

  /// How many rows got `verdict`.
  size_t Count(Verdict verdict) const;

  /// "12 rows compared: 2 faster, 1 slower, 8 same, 1 noisy; 1 only in base, 0 only in new,
  /// 0 not measured".
  std::string SummaryLine() const;
};

/// Compares `next` against `base` by the rule above. Rows match when id and params are equal.
Comparison CompareRuns(const RunRecord& base, const RunRecord& next, const CompareOptions& options);

/// True when both runs used the same adapter: vendor, architecture, device, IDs, backend and
/// adapter type agree. The driver (`description`) and the Dawn build may differ: comparing
/// across a driver or Dawn update is what compare is for.
bool SameAdapter(const DeviceDescription& a, const DeviceDescription& b);

/// "NVIDIA H200 (nvidia hopper, vulkan, 0x10de:0x2335)", for messages.
std::string AdapterName(const DeviceDescription& device);

/// One row of the cross-device ratio table.
struct CrossDeviceRow {
  std::string id;
  std::string unit;
  double base_metric = kNoValue;  ///< the row's metric on the base device [unit]
  double new_metric = kNoValue;   ///< the row's metric on the new device [unit]
  double base_ms = kNoValue;      ///< the compared time on the base device [ms]
  double new_ms = kNoValue;       ///< the compared time on the new device [ms]
  double ratio = kNoValue;        ///< new_ms / base_ms
  std::string params_note;        ///< the params that differ ("copies 4→8"), "" when none
};

/// Rows measured in both runs matched by id alone (a device may size a row differently, so
/// params may differ and are noted), in the base run's order, for `compare --cross-device`.
std::vector<CrossDeviceRow> CompareAcrossDevices(const RunRecord& base, const RunRecord& next);

}  // namespace refract::results
