// The decode step's gate/up projection with what comes before it — the residual add, RMSNorm and
// the int8 quantizer — and after it — silu(gate) · up and the int8 quantizer of the result, what
// the down GEMV reads — at a model's decode shape: baseline = the unfused chain
// (decode_quantize_q8.wgsl's norm, the q8 GEMV, then its silu_mul), tuned = the fused GEMV
// (decode/fused_gemvs.h). Both are checked against one CPU model: h = a + b exactly, the normed
// row quantized (reference::AddRmsNorm, QuantizeQ8), reference::GemvQ8 on its codes, silu(gate) ·
// up in double, each output's code times its block's scale within half a step of the model's
// value (plus what the GEMV's f32 sums may move it), each block's scale within that of the
// model's, each block's code sum the sum of its codes.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "suites/kernels/kernel_benchmark.h"
#include "suites/kernels/model_shapes.h"
#include "suites/kernels/q8_gemv_inputs.h"

namespace refract::suites::kernels {

class GateUpSiluBenchmark final : public KernelBenchmark {
 public:
  GateUpSiluBenchmark(bench::BenchmarkInfo info, Variant variant, const ModelConfig& model,
                      KernelOptions options);
  /// The tuned row also needs a configuration whose workgroup holds whole q8 blocks.
  ops::Refusal CheckOn(const DeviceLimits& limits) const override;
  std::vector<ops::Axis> OpAxes() const override;
  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  const ModelConfig& model_;
  Q8GemvInputs inputs_;
  std::optional<GpuResidual> residual_;  ///< copy 0's
};

/// The gate-up-silu rows: Qwen2.5-0.5B's decode shape (896 → 2 × 4864), baseline and tuned.
std::vector<std::unique_ptr<KernelBenchmark>> GateUpSiluBenchmarks(const KernelOptions& options);

}  // namespace refract::suites::kernels
