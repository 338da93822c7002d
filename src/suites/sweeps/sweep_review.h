// What a sweep's finished rows mean, pure (no GPU): per problem the two winners (overall, and
// within WebGPU's default limits) with the runner-up's margin and their speed-ups over the
// built-in and the seed's default rows, and along the sweep's main axis the cliffs
// (tune/sweep_analysis), written into the rows as flags with their reasons and into the
// record's summary.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "results/run_record.h"
#include "tune/sweep_analysis.h"

namespace refract::suites::sweeps {

/// How one sweep's rows are read (from its Sweep).
struct SweepReading {
  std::string main_axis;          ///< the numeric param the cliffs run along
  double cliff_threshold = 0.75;  ///< SWEEPS.md: 0.75; 0.80 for bandwidth
  bool has_winners = true;
};

/// What a sweep row stands for (param "role").
inline constexpr const char* kRoleGrid = "grid";        ///< a point of the sweep's grid
inline constexpr const char* kRoleDefault = "default";  ///< refract's built-in default
inline constexpr const char* kRoleSeed = "seed";        ///< the seed's default configuration

/// What a configuration ran, in its row's params (a profile entry's stamp): the kernels it
/// compiled ("a,b", name order) and wgsl::KernelsHash of them; its op's axis names ("a,b") and
/// their refract::profile::AxesHash.
inline constexpr const char* kKernelsParam = "kernels";
inline constexpr const char* kKernelHashParam = "kernel_hash";
inline constexpr const char* kAxesParam = "axes";
inline constexpr const char* kAxesHashParam = "axes_hash";

/// How the message of a configuration that did not run begins ("not run: interrupted …", "not
/// run: the sweep's budget …"): a grid with such a row did not run whole.
inline constexpr const char* kNotRunMessage = "not run";
inline bool DidNotRun(const results::ResultRow& row) {
  return row.message.rfind(kNotRunMessage, 0) == 0;
}

/// Flags added to sweep rows.
inline constexpr const char* kWinnerFlag = "winner";
inline constexpr const char* kDefaultLimitsWinnerFlag = "winner-default-limits";
inline constexpr const char* kCliffFlag = "cliff";
inline constexpr const char* kOverDefaultLimitsFlag = "over-default-limits";
/// The default row and a grid row of the same configuration read further apart than
/// kTwinTolerance: the problem's readings did not repeat within the run.
inline constexpr const char* kUnrepeatableFlag = "unrepeatable";
/// How far (as a ratio above 1) two readings of one configuration in one run may lie apart
/// before the problem's readings count as unrepeatable. In the H200's seven sweeps such twins
/// agreed within 0.4 %; in a decode-attention sweep they lay 1.4-1.5x apart
/// (docs/results/archive/NOTEBOOK.md).
inline constexpr double kTwinTolerance = 0.10;

/// The names of a comma-separated list param, in order ("items,wg" → items, wg; empty names
/// dropped): kAxesParam, kKernelsParam.
std::vector<std::string> SplitNames(const std::string& list);

/// The trial `row` stands for along `main_axis` (its median and p10–p90 when ok; rejected
/// when skipped; failed otherwise; within the default limits unless it has the param
/// over_default_limits).
tune::Trial TrialOf(const results::ResultRow& row, const std::string& main_axis);

/// The winners the review picked for one problem (a category), by row id: what the flags say,
/// for the code that carries them on (a profile's entries) without picking again.
struct ProblemWinners {
  /// The configurations the winners were chosen from: the rows of the op's own variant (the
  /// built-in default's; a seed row of another kernel, a `--kernel` sweep's baseline, is only
  /// the reference of the seed's speed-up).
  std::vector<std::string> candidates;
  std::string winner;                      ///< the fastest verified candidate
  double margin = tune::kNoValue;          ///< how much slower the runner-up was (0.05 = 5 %)
  std::string within_default_limits;       ///< the fastest within the limits; "" when none ran
  double within_margin = tune::kNoValue;
  std::string fallback;  ///< the built-in default's row, when it was verified and timed
  std::string seed;      ///< the seed's default's row, likewise
};

/// What a review found: the record's summary and, per problem with a winner, its winners.
struct SweepReview {
  results::Summary summary;
  std::map<std::string, ProblemWinners> problems;  ///< by category
};

/// Reviews `rows` (their identity's sweep, problem and role; their category "<sweep>/<problem>"),
/// each sweep as `readings` says (a sweep it does not name is left alone):
/// - a row with param over_default_limits gets flag over-default-limits (its reason);
/// - per category, the fastest ok row of the op's own variant (the smallest median; a seed row
///   of another kernel is no candidate) gets `winner`, the fastest of those within the default
///   limits `winner-default-limits`, each with its margin over the runner-up and its speed-up
///   over the category's "default" and "seed" rows when they are ok;
/// - per category, cliffs along the sweep's main axis: the best row at a cliff's x gets `cliff`,
///   its depth and the likely cause the axis supports;
/// - per category, the default row and every ok grid row with the same values of the op's axes
///   (param "axes") get `unrepeatable` when their medians lie more than kTwinTolerance apart:
///   the winner and speed-ups of that problem are not to be trusted. (It is a warning, not a
///   gate: the profile still takes the winner, since a loaded CPU adapter's noise can pass the
///   tolerance too.)
/// Returns the winners by problem and the summary: per category "<category>: winner over
/// default" (and "… over seed") [ratio] and "<category>: twin spread" (the larger over the
/// smaller median of an unrepeatable pair) [ratio], per sweep "<sweep>: configurations", "…
/// measured", "… cliffs" [count], each only when above 0 (a document's summary holds no 0).
SweepReview ReviewSweepRows(std::vector<results::ResultRow>& rows,
                            const std::map<std::string, SweepReading>& readings);

}  // namespace refract::suites::sweeps
