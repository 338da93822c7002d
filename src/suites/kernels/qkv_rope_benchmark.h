// The decode step's q/k/v projection and what follows it — the bias, RoPE at the step's position
// and the append of k and v to the layer's cache — on int8 activations quantized beforehand, at
// a model's decode shape: baseline = the unfused chain (the q8 GEMV, then decode_rope_kv.wgsl),
// tuned = the fused GEMV whose epilogue does the rest (decode/fused_gemvs.h). Both are checked
// against one CPU model: reference::GemvQ8 on the same codes, the bias, the decoder's RoPE
// (rotate half) at the position; q, and the cache rows before, at and after the position (k and v
// land at the position only).
#pragma once

#include <memory>
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
};

/// The qkv-rope rows: Qwen2.5-0.5B's decode shape (896 → 1152: 14 query heads, 2 KV heads of
/// 64), baseline and tuned.
std::vector<std::unique_ptr<KernelBenchmark>> QkvRopeBenchmarks(const KernelOptions& options);

}  // namespace refract::suites::kernels
