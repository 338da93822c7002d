// The decode step's q/k/v projection with what comes before it — the residual add, RMSNorm and
// the int8 quantizer — and after it — the bias, RoPE at the step's position and the append of k
// and v to the layer's cache — at a model's decode shape: baseline = the unfused chain
// (decode_quantize_q8.wgsl's norm, the q8 GEMV, then decode_rope_kv.wgsl), tuned = the fused GEMV
// (decode/fused_gemvs.h). Both are checked against one CPU model: h = a + b exactly, the normed
// row quantized (reference::AddRmsNorm, QuantizeQ8), reference::GemvQ8 on its codes, the bias, the
// decoder's RoPE (rotate half) at the position; q, and the cache rows before, at and after the
// position (k and v land at the position only).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "suites/kernels/kernel_benchmark.h"
#include "suites/kernels/model_shapes.h"
#include "suites/kernels/q8_gemv_inputs.h"

namespace refract::suites::kernels {

class QkvRopeBenchmark final : public KernelBenchmark {
 public:
  QkvRopeBenchmark(bench::BenchmarkInfo info, Variant variant, const ModelConfig& model,
                   KernelOptions options);
  ops::Refusal CheckOn(const DeviceLimits& limits) const override;
  std::vector<ops::Axis> OpAxes() const override;
  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;

  /// The position the step's k and v land at (of a cache of kCapacity rows).
  static constexpr uint32_t kPosition = 100;
  static constexpr uint32_t kCapacity = 128;

 private:
  const ModelConfig& model_;
  Q8GemvInputs inputs_;
  std::vector<float> bias_;
  std::optional<GpuResidual> residual_;  ///< copy 0's
};

/// The qkv-rope rows: Qwen2.5-0.5B's decode shape (896 → 1152: 14 query heads, 2 KV heads of
/// 64), baseline and tuned.
std::vector<std::unique_ptr<KernelBenchmark>> QkvRopeBenchmarks(const KernelOptions& options);

}  // namespace refract::suites::kernels
