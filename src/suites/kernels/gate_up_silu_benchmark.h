// The decode step's gate/up projection and what follows it — silu(gate) · up and the int8
// quantizer of the result, what the down GEMV reads — on int8 activations quantized beforehand,
// at a model's decode shape: baseline = the unfused chain (the q8 GEMV, then
// decode_quantize_q8.wgsl's silu_mul), tuned = the fused GEMV whose epilogue does the rest
// (decode/fused_gemvs.h). Both are checked against one CPU model: reference::GemvQ8 on the same
// codes, silu(gate) · up in double, each output's code times its block's scale within half a
// step of the model's value (plus what the GEMV's f32 sums may move it), each block's scale
// within that of the model's, each block's code sum the sum of its codes.
#pragma once

#include <memory>
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
};

/// The gate-up-silu rows: Qwen2.5-0.5B's decode shape (896 → 2 × 4864), baseline and tuned.
std::vector<std::unique_ptr<KernelBenchmark>> GateUpSiluBenchmarks(const KernelOptions& options);

}  // namespace refract::suites::kernels
