// One benchmark of any suite: its identity (id and parameters), what the device must have, how
// to prepare and verify it, and what one timed dispatch records. The runner (bench/runner.h)
// does the rest, the same way for every suite.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "base/verification.h"
#include "gpu/context.h"
#include "measure/workload.h"
#include "results/row_identity.h"
#include "results/params.h"
#include "results/run_record.h"

namespace refract::bench {

/// What --list shows and every result row carries.
struct BenchmarkInfo {
  std::string id;           ///< unique within its suite, e.g. "read-linear"
  std::string category;     ///< the suite's grouping, e.g. "bandwidth" or "matmul"
  std::string unit;         ///< metric unit: "FLOP/s", "OP/s", "B/s", …
  std::string needs;        ///< what the device must have, in words ("" when nothing)
  std::string description;  ///< one line
  results::Params params;   ///< the axes: shape, data type, configuration
  results::RowIdentity identity;  ///< kernel, variant, model, phase, problem, sweep, role, dims
};

/// The params a result row of `info` carries: its own, with its identity written in.
inline results::Params RowParams(const BenchmarkInfo& info) {
  return results::WithIdentity(info.params, info.identity);
}

/// A benchmark. Life: MissingRequirement → Prepare → Verify → (timed by the engine through
/// measure::Workload and Dispatches) → Release.
class Benchmark : public measure::Workload {
 public:
  /// The benchmark's identity. Prepare may refine `params` (sizes chosen for the device); the
  /// runner reads it again after Prepare.
  virtual const BenchmarkInfo& info() const = 0;
  std::string_view id() const override { return info().id; }

  /// Why the device cannot run this benchmark ("needs shader-f16…"), or nothing when it can.
  virtual std::optional<std::string> MissingRequirement(const gpu::Context& context) const = 0;

  /// Compiles the kernels and allocates the timed problem. GPU errors throw GpuError.
  virtual void Prepare(gpu::Context& context) = 0;

  /// Runs the prepared kernels on a verification problem and compares the outputs with the CPU
  /// model (reference/compare.h). Throws VerificationError naming the mismatches; returns what
  /// was checked. Called after Prepare, before any timing: a wrong kernel is never timed.
  virtual VerificationRecord Verify(gpu::Context& context) = 0;

  /// What one "dispatch" of this benchmark records, in order; timers repeat it N times in one
  /// compute pass. Valid between Prepare and Release.
  virtual std::span<const gpu::Dispatch> Dispatches() const = 0;

  /// Kernel invocations one "dispatch" of Dispatches() holds that the row's times are per (a
  /// row rotating through k copies of its inputs records k invocations a dispatch): the runner
  /// divides times and work by it. 1 by default.
  virtual uint32_t InvocationsPerDispatch() const { return 1; }

  /// Adds what the benchmark knows about its own row beyond its identity, once it is prepared
  /// (the kernels suite: the model FLOP and bytes of a dispatch, for the roofline). Nothing by
  /// default.
  virtual void Describe(results::ResultRow& row) const { static_cast<void>(row); }

  /// Frees the GPU resources of the timed problem (after the run measured it).
  virtual void Release() {}
};

}  // namespace refract::bench
