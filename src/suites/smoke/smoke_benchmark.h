// The smoke benchmark: one small kernel over a few million elements, checked against the CPU
// and timed by the shared runner. It proves a machine can run refract before any suite does.
#pragma once

#include <cstdint>
#include <string>

#include "bench/benchmark.h"

namespace refract::suites::smoke {

/// out[i] = in[i] × 1.5 − 0.25 over `elements` f32 values (smoke_scale_add.wgsl); one dispatch
/// moves elements × 8 bytes (one read, one write). Verified against reference::ScaleAddModel
/// within 1e-6 (one multiply-add, fused or not). Params: elements.
class SmokeBenchmark final : public bench::Benchmark {
 public:
  /// `elements` ≥ 1 (UsageError otherwise). `id` names the row (a decode run times the same
  /// kernel as its dependent-dispatch floor, "dispatch-floor").
  explicit SmokeBenchmark(uint32_t elements, std::string id = "smoke-scale-add");

  const bench::BenchmarkInfo& info() const override { return info_; }
  std::optional<std::string> MissingRequirement(const gpu::Context& context) const override;
  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;
  std::span<const gpu::Dispatch> Dispatches() const override {
    return std::span<const gpu::Dispatch>(&dispatch_, 1);
  }
  void Release() override;
  double WorkPerDispatch() const override { return 8.0 * elements_; }

 private:
  bench::BenchmarkInfo info_;
  uint32_t elements_;
  std::vector<float> input_;
  gpu::Buffer output_;
  gpu::Dispatch dispatch_;
};

}  // namespace refract::suites::smoke
