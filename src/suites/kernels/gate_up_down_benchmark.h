// The decode step's default MLP dispatch at a model's decode shape: the residual add, RMSNorm and
// the int8 quantizer, the gate/up GEMV, silu(gate) · up quantized, and the down projection —
// baseline = the unfused chain (decode_quantize_q8.wgsl's norm, the q8 gate/up GEMV, its
// silu_mul, the q8 down GEMV: four dispatches), tuned = the fused kernel the step runs
// (decode/fused_gemvs.h's FusedGateUpDown: one dispatch, the down projection added up in fixed
// point). Both are checked against one CPU model: h = a + b exactly, then the down projection of
// the model's int8 blocks of silu(gate) · up (reference::GemvQ8 twice). The tolerance of each
// output is what the device may rightly differ by: an intermediate code one step off where its
// value lies within the GPU's f32 error of a rounding tie, its block's scale within that error,
// the GEMVs' f32 sums and the fixed point's rounding — far below one block of the sum dropped.
// The fused kernel also sets the vector it clears to 0.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "suites/kernels/kernel_benchmark.h"
#include "suites/kernels/model_shapes.h"
#include "suites/kernels/q8_gemv_inputs.h"

namespace refract::suites::kernels {

class GateUpDownBenchmark final : public KernelBenchmark {
 public:
  GateUpDownBenchmark(bench::BenchmarkInfo info, Variant variant, const ModelConfig& model,
                      KernelOptions options);
  /// The tuned row also needs a configuration that FusedGateUpDown takes.
  ops::Refusal CheckOn(const DeviceLimits& limits) const override;
  std::vector<ops::Axis> OpAxes() const override;
  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  const ModelConfig& model_;
  Q8GemvInputs inputs_;                  ///< the gate/up GEMV's (gate rows, then up rows)
  reference::Q4Matrix down_;             ///< [intermediate → hidden]
  std::optional<GpuResidual> residual_;  ///< copy 0's
};

/// The gate-up-down rows: Qwen2.5-0.5B's decode shape (896 → 2 × 4864 → 896), baseline and tuned.
std::vector<std::unique_ptr<KernelBenchmark>> GateUpDownBenchmarks(const KernelOptions& options);

}  // namespace refract::suites::kernels
