// The generic runner of raw-ALU rows: any AluRowSpec becomes a benchmark.
#pragma once

#include <optional>
#include <string>

#include "bench/benchmark.h"
#include "gpu/context.h"
#include "suites/ceilings/alu_row_spec.h"
#include "suites/ceilings/loop_row.h"

namespace refract::suites::ceilings {

/// Compiles the row's kernel, runs it with `threads` threads and `iterations` iterations, and
/// compares every output with spec.model within spec.tolerance. Throws VerificationError naming
/// the first mismatching threads; GpuError when it fails to run. Returns what was checked.
VerificationRecord VerifyAluKernel(gpu::Context& context, const AluRowSpec& spec, uint32_t threads,
                                   uint32_t iterations);

/// A raw-ALU row: the work knob is the loop's iteration count in [min_iterations,
/// default_iterations]; one dispatch does threads × iterations × ops_per_iteration ops.
/// Params: threads.
class AluRow : public LoopRow {
 public:
  explicit AluRow(AluRowSpec spec);
  ~AluRow() override;

  std::optional<std::string> MissingRequirement(const gpu::Context& context) const override;
  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;
  double WorkPerDispatch() const override;

 private:
  void WriteParams(gpu::Context& context, const gpu::Buffer& params) const override;

  AluRowSpec spec_;
};

}  // namespace refract::suites::ceilings
