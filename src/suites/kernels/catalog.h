// Every row of the kernels suite, and how a run selects among them (--model, --kernel,
// --variant, --phase, --preset).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/benchmark.h"
#include "ops/axis.h"

namespace refract::suites::kernels {

/// The kernels of the suite, in display order: seed 003's twelve and the two fused ones.
const std::vector<std::string>& KernelNames();

/// What a run picks. Model rows of other models are left out; the reference shapes (model
/// "reference": 4096³, the 14336 × 4096 GEMV) go with every model but not with the quick preset.
struct KernelSelection {
  std::string model = "qwen2.5-0.5b";
  std::vector<std::string> kernels;  ///< names of KernelNames(); empty = all
  std::string variant = "both";      ///< "baseline", "tuned", "tuned-q8" or "both" (every variant)
  std::string phase = "all";  ///< "decode", "prefill", "encoder" (non-causal attention) or "all"
  /// "full": every shape; "quick": decode rows only, attention and softmax at a cache of
  /// S = 1024 only, no reference shapes (what `make run` measures).
  std::string preset = "full";
  /// fnmatch globs on row ids (`--filter`): when non-empty, only the rows the other fields pick
  /// that match one of them; each glob must match one of those rows.
  std::vector<std::string> globs;
};

struct CatalogOptions {
  uint64_t cold_footprint_bytes = 0;  ///< the rotation's span [bytes]; 0: the device's default
  uint64_t seed = 1;                  ///< seeds every row's deterministic inputs (`--seed`)
  /// Axes of the one selected kernel's tuned ops fixed by name (`--set NAME=VALUE`, parsed
  /// against TunedAxes), in every tuned row selected.
  ops::Settings settings;
  std::optional<uint32_t> time_dispatch;  ///< KernelOptions::time_dispatch, every row
  /// false: a selection that leaves no row gives none (a sweep asking each model for a kernel
  /// only some models have: qkv-rope is a decoder's); true: UsageError.
  bool none_is_error = true;
};

/// Every axis the tuned ops of `kernel` declare, in table order (matmul-f32 and matmul-q4: the
/// GEMV's, then the GEMM's); throws UsageError naming the known kernels for an unknown one.
std::vector<ops::Axis> TunedAxes(const std::string& kernel);

/// The rows `selection` picks, in display order (by kernel, then as the families list them),
/// each tagged with params "kernel" and "phase". Throws UsageError naming the known values for
/// an unknown model, kernel, variant, phase or preset, naming a glob that matches none of the
/// rows picked, or for a selection that leaves nothing.
std::vector<std::unique_ptr<bench::Benchmark>> MakeKernelRows(const KernelSelection& selection,
                                                              const CatalogOptions& options);

/// The ceilings rows a kernels run measures first, for its roofline: read-linear and the f32
/// multiply-add rows.
std::vector<std::unique_ptr<bench::Benchmark>> MakeRooflineCeilingRows();

}  // namespace refract::suites::kernels
