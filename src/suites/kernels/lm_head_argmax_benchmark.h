// The decode step's LM head with the argmax's first stage after it, at a model's decode shape:
// baseline = the unfused chain (the q8 GEMV of [vocab, hidden] writing the logits, then
// decode_argmax.wgsl's `partial`: two dispatches), tuned = the LM head that takes the best of its
// own rows (decode/fused_gemvs.h's FusedHeadArgmax: one dispatch). The pick over the partials,
// the same kernel after both, is not in the row. Checked against the CPU model: every logit
// against reference::GemvQ8 of the quantized row, and every partial against the best, by
// decode_argmax_rule_part.wgsl's rule (the largest; the lowest index among equal largest), of the
// GPU's own logits in the range it covers. The most likely row is copied to its pair's row, so
// that two equal largest logits in one partial's range test the rule (param equal_largest: the
// GPU's two logits equal).
#pragma once

#include <memory>
#include <vector>

#include "suites/kernels/kernel_benchmark.h"
#include "suites/kernels/model_shapes.h"
#include "suites/kernels/q8_gemv_inputs.h"

namespace refract::suites::kernels {

class LmHeadArgmaxBenchmark final : public KernelBenchmark {
 public:
  LmHeadArgmaxBenchmark(bench::BenchmarkInfo info, Variant variant, const ModelConfig& model,
                        KernelOptions options);
  /// Settings are the q8 GEMV's; the tuned row also needs FusedHeadArgmax to take them.
  ops::Refusal CheckOn(const DeviceLimits& limits) const override;
  std::vector<ops::Axis> OpAxes() const override;
  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  const ModelConfig& model_;
  Q8GemvInputs inputs_;
  std::vector<double> logits_;  ///< the CPU model's
  uint32_t original_ = 0, copy_ = 0;
  uint32_t logits_a_partial_ = 0;
};

/// The lm-head-argmax rows: Qwen2.5-0.5B's LM head (151,936 × 896), baseline and tuned.
std::vector<std::unique_ptr<KernelBenchmark>> LmHeadArgmaxBenchmarks(const KernelOptions& options);

}  // namespace refract::suites::kernels
