// The generic runner of raw-ALU rows: any AluRowSpec becomes a benchmark.
#pragma once

#include <optional>
#include <string>

#include "bench/benchmark.h"
#include "gpu/context.h"
#include "suites/ceilings/alu_row_spec.h"

namespace refract::suites::ceilings {

/// Compiles the row's kernel, runs it with `threads` threads and `iterations` iterations, and
/// compares every output with spec.model within spec.tolerance. Throws VerificationError naming
/// the first mismatching threads; GpuError when it fails to run. Returns what was checked.
VerificationRecord VerifyAluKernel(gpu::Context& context, const AluRowSpec& spec, uint32_t threads,
                                   uint32_t iterations);

/// A raw-ALU row: the work knob is the loop's iteration count in [min_iterations,
/// default_iterations]; one dispatch does threads × iterations × ops_per_iteration ops.
/// Params: threads.
class AluRow : public bench::Benchmark {
 public:
  explicit AluRow(AluRowSpec spec);
  ~AluRow() override;

  const bench::BenchmarkInfo& info() const override { return info_; }
  std::optional<std::string> MissingRequirement(const gpu::Context& context) const override;
  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;
  void Release() override;

  bool HasWorkKnob() const override { return true; }
  uint64_t MinWork() const override { return spec_.min_iterations; }
  uint64_t MaxWork() const override { return spec_.default_iterations; }
  uint64_t Work() const override { return iterations_; }
  void SetWork(uint64_t work) override;
  double WorkPerDispatch() const override;
  std::span<const gpu::Dispatch> Dispatches() const override;

 private:
  AluRowSpec spec_;
  bench::BenchmarkInfo info_;
  uint32_t iterations_;
  gpu::Context* context_ = nullptr;  // set by Prepare; outlives the row's use
  gpu::Buffer params_;
  gpu::Buffer output_;
  gpu::Dispatch dispatch_;
};

}  // namespace refract::suites::ceilings
