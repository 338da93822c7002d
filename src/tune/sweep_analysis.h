// What a sweep's measured configurations mean (../shared/reference/SWEEPS.md, "Rules"): the two
// winners at one problem (overall, and within WebGPU's default limits) with the runner-up's
// margin and the speed-up over a reference configuration, and the cliffs along the sweep's main
// axis. GPU-free: the sweep runner fills the trials, this only reads them.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "ops/axis.h"

namespace refract::tune {

inline constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

/// How a configuration ended.
enum class TrialOutcome {
  kMeasured,  ///< verified, then timed
  kRejected,  ///< refused by its op's Check before anything ran (the reason says why)
  kFailed,    ///< did not compile, did not verify, or failed on the device: never timed
};

/// One configuration of a sweep at one point of its main axis.
struct Trial {
  ops::Settings settings;
  double x = 0;  ///< the main axis at this point (bytes, elements, a grid value)
  TrialOutcome outcome = TrialOutcome::kMeasured;
  std::string reason;                 ///< why it was not measured; "" when measured
  double median_ms = kNoValue;        ///< [ms a dispatch]
  double p10_ms = kNoValue;           ///< [ms a dispatch]
  double p90_ms = kNoValue;           ///< [ms a dispatch]
  double rate = kNoValue;             ///< work / median time (higher is better) [unit/s]
  bool within_default_limits = true;  ///< fits WebGPU's defaults (16 KiB workgroup memory, 256
                                      ///< invocations): what a browser's device can run
};

/// The fastest measured trial of a set.
struct Winner {
  size_t trial = 0;  ///< index into the trials given
  /// The runner-up's median over the winner's, minus 1 (0.04: the next is 4 % slower); NaN
  /// when nothing else was measured.
  double margin = kNoValue;
  /// The reference configuration's median over the winner's (≥ 1); NaN when the reference was
  /// not among the measured trials.
  double speedup_over_reference = kNoValue;
};

/// The two winners of one problem: overall, and among trials within the default limits.
struct Winners {
  std::optional<Winner> overall;
  std::optional<Winner> within_default_limits;
};

/// The winners among `trials` (one problem: x is not looked at): the smallest finite positive
/// median of the measured ones, ties to the earlier trial; trials rejected or failed never win.
/// `reference` (e.g. the seed's default configuration) gives each winner's speed-up over it.
Winners PickWinners(const std::vector<Trial>& trials,
                    const std::optional<ops::Settings>& reference = std::nullopt);

/// Where the best rate along the main axis falls.
struct Cliff {
  double x = 0;             ///< the first x whose best is below the threshold
  double before_x = 0;      ///< the smaller x of the highest best before it
  double depth = kNoValue;  ///< the best there over the best before (e.g. 0.42)
  std::string cause;        ///< the likely cause the data supports, or "" when none is known
};

struct CliffOptions {
  /// A best below threshold × the best at any smaller x is a cliff (SWEEPS.md: 0.75; 0.80 for
  /// bandwidth).
  double threshold = 0.75;
  /// The device's last-level cache [bytes], when x is a working set in bytes and the size is
  /// known: a cliff whose x passes it while the best before did not is "the working set left
  /// the cache".
  std::optional<double> cache_bytes;
};

/// The cliffs of `trials` along x: at each x the best measured rate; a cliff is marked at each
/// x where that best drops below `threshold` times the highest best at any smaller x, when the
/// x before it was not below (a run of low points is one cliff, at its first x). xs without a
/// measured trial are skipped.
std::vector<Cliff> FindCliffs(const std::vector<Trial>& trials, const CliffOptions& options = {});

}  // namespace refract::tune
