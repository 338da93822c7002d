// The base of the ceilings rows whose work knob is their kernel's loop count (the raw-ALU rows,
// the texture-interpolation rows): the count and its range, the uniform that holds it, and the
// one dispatch a sample records.
#pragma once

#include <cstdint>
#include <span>

#include "bench/benchmark.h"
#include "gpu/context.h"

namespace refract::suites::ceilings {

class LoopRow : public bench::Benchmark {
 public:
  const bench::BenchmarkInfo& info() const final { return info_; }

  bool HasWorkKnob() const final { return true; }
  uint64_t MinWork() const final { return min_iterations_; }
  uint64_t MaxWork() const final { return max_iterations_; }
  uint64_t Work() const final { return iterations_; }
  /// Throws Error outside [MinWork, MaxWork]; a prepared row's uniform is rewritten
  /// (WriteParams) before the next dispatch.
  void SetWork(uint64_t work) final;

  std::span<const gpu::Dispatch> Dispatches() const final { return {&dispatch_, 1}; }
  /// Drops the dispatch and the uniform; a row holding more drops it too, then calls this.
  void Release() override;

 protected:
  /// The loop count starts at `max_iterations`.
  LoopRow(bench::BenchmarkInfo info, uint32_t min_iterations, uint32_t max_iterations);

  uint32_t iterations() const { return iterations_; }
  /// Records what Prepare made: the timed dispatch and its uniform `params`, which SetWork
  /// rewrites on `context` (it outlives the row's use).
  void SetPrepared(gpu::Context& context, gpu::Buffer params, gpu::Dispatch dispatch);
  /// The timed dispatch; empty before Prepare.
  const gpu::Dispatch& dispatch() const { return dispatch_; }
  /// Writes the kernel's uniform for iterations() into `params`.
  virtual void WriteParams(gpu::Context& context, const gpu::Buffer& params) const = 0;

 private:
  bench::BenchmarkInfo info_;
  uint32_t min_iterations_, max_iterations_, iterations_;
  gpu::Context* context_ = nullptr;
  gpu::Buffer params_;
  gpu::Dispatch dispatch_;
};

}  // namespace refract::suites::ceilings
