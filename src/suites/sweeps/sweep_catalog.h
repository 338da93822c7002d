// The sweeps (../shared/reference/SWEEPS.md): each a list of configurations of one op at its
// problems, one kernels-suite row a configuration, named "<sweep>/<problem>/<settings>", plus at
// every problem the op's built-in default ("…/default") and, where the seed states one, the
// seed's default ("…/seed"). A configuration the device's limits refuse is a row the runner
// skips with the reason, never run.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ops/axis.h"
#include "suites/kernels/kernel_benchmark.h"
#include "suites/sweeps/sweep_review.h"

namespace refract::suites::sweeps {

/// One sweep: its configurations and how its results are read.
struct Sweep {
  std::string name;               ///< "bandwidth", … or "kernel:<name>"
  std::string main_axis;          ///< the param the cliffs run along (rows' param "main_axis" too)
  double cliff_threshold = 0.75;  ///< SWEEPS.md: 0.75; 0.80 for bandwidth
  /// Whether each problem has winners: false for bandwidth, whose only axis is the size.
  bool has_winners = true;
  /// Each problem on a new worker process and device: isolation for problems whose cold copies
  /// span hundreds of MiB. (Measured not to be what fixed the H200's slow LM-head readings: the
  /// long-pass rule of sweep_runner.h did; docs/results/archive/NOTEBOOK.md, "The sweeps".)
  bool fresh_device_per_problem = false;
  /// What the seed's default is, in words, or why there is none (the record's option
  /// "seed_default <name>").
  std::string seed_default;
  /// Every row: params "sweep", "problem", "role", "main_axis" and the grid point's axes; the
  /// category "<sweep>/<problem>".
  std::vector<std::unique_ptr<kernels::KernelBenchmark>> rows;
  /// How each problem's rows are made (not the bandwidth sweep's sizes): at any settings, not
  /// only the grid's, and the params its rows carry. ConfigurationRow uses them.
  struct Problem {
    std::function<std::unique_ptr<kernels::KernelBenchmark>(const ops::Settings&)> make;
    results::Params params;
  };
  std::map<std::string, Problem> problems;
};

/// The seven sweeps of SWEEPS.md, in its order.
const std::vector<std::string>& SweepNames();

/// What a sweep run builds.
struct SweepSelection {
  std::vector<std::string> sweeps;   ///< names of SweepNames()
  std::vector<std::string> kernels;  ///< kernels of the kernels suite (kernels::KernelNames())
  bool quick = false;  ///< every grid's quick values, smaller problems, one copy of the inputs
  uint64_t seed = 1;   ///< seeds the inputs
  /// The rotation's span [bytes]; 0: the device's default (quick: one copy, warm: a quick sweep
  /// ranks configurations, it does not stand for decode's cold figures).
  uint64_t cold_footprint_bytes = 0;
};

/// The sweeps `selection` names, sweeps first, then one "kernel:<name>" sweep a kernel: its
/// tuned rows (and tuned-q8 for matmul-q4) at both models' shapes, each over its own op's axes
/// (their grid, or quick grid), with the baseline row as the seed's default. Throws
/// UsageError naming the known names for an unknown sweep or kernel, or when nothing is named.
std::vector<Sweep> MakeSweeps(const SweepSelection& selection);

/// The row of `sweep`'s `problem` at `settings`, named as that grid point would be (a profile
/// entry's winner rebuilt from its params); null when the sweep has no such problem. The row's
/// op checks the settings when it is prepared.
std::unique_ptr<kernels::KernelBenchmark> ConfigurationRow(const Sweep& sweep,
                                                           const std::string& problem,
                                                           const ops::Settings& settings);

/// Keeps only the rows whose id matches one of `globs` (base/id_globs.h; `--filter`); throws
/// UsageError naming a glob that matches no row of `sweeps`, or when there are none.
void KeepMatching(std::vector<Sweep>& sweeps, const std::vector<std::string>& globs);

}  // namespace refract::suites::sweeps
