// What a result row is — its kernel, variant, model, phase, problem, the sweep and role it has
// in a sweep, and which of its params are its problem's dimensions — as one typed record. Rows
// carry it beside their other params (bench::BenchmarkInfo::identity); the JSON writes it into
// `params` under these names, and every reader (a sweep's review, a profile's entries, `kernels
// --profile`) takes it back through IdentityOf instead of reading the strings itself.
#pragma once

#include <string>
#include <vector>

#include "results/params.h"

namespace refract::results {

struct RowIdentity {
  std::string kernel;   ///< "matmul-q4", "rmsnorm"; a sweep's own op ("reduce"); "" for ceilings
  std::string variant;  ///< "baseline", "tuned", "tuned-q8"
  std::string model;    ///< "qwen2.5-0.5b", "embeddinggemma2", "reference"
  std::string phase;    ///< "decode", "prefill", "encoder"
  /// The problem a kernel solves: a kernels row's id after the kernel's name
  /// ("qwen2.5-0.5b/q+o/m1/tuned-q8"), a sweep configuration's problem ("sum-1m").
  std::string problem;
  std::string sweep;  ///< the sweep a configuration row belongs to ("q4-gemv", "kernel:add")
  std::string role;   ///< in a sweep: "grid", "default" or "seed"
  /// The params that are the problem's dimensions ("m", "n", "k"; "t", "hidden"), in name
  /// order: what a profile's nearest-shape lookup compares.
  std::vector<std::string> dimensions;

  bool operator==(const RowIdentity&) const = default;
};

/// `params` with `identity`'s fields written in (those that are set): kernel, variant, model,
/// phase, problem, sweep, role, and `dims` ("m,n,k").
Params WithIdentity(Params params, const RowIdentity& identity);

/// The identity written into `params` (fields not there are empty).
RowIdentity IdentityOf(const Params& params);

}  // namespace refract::results
