// The decode step's attention with the o projection after it, at a model's decode shape and a
// context of S keys: baseline = the unfused chain (the split-KV kernel, its merge, then the f32
// q4 o GEMV on the merged heads: three dispatches), tuned = the split and the merge by head
// (decode/fused_gemvs.h's FusedMergeOHeads: attention's merge and the o projection a group of
// heads at a time, each group's share of the o projection added into one vector in fixed point:
// two dispatches). Both are checked against one CPU model: reference::Attention of the query row,
// then reference::Q4Gemv through o; the tuned row's fixed-point sum, read as the gate/up GEMV's
// input reads it, stands for its output, and the vector it clears must be all 0.
#pragma once

#include <memory>
#include <vector>

#include "reference/llm_decoder.h"
#include "suites/kernels/attention_benchmark.h"
#include "suites/kernels/kernel_benchmark.h"
#include "suites/kernels/model_shapes.h"

namespace refract::suites::kernels {

class MergeOHeadsBenchmark final : public KernelBenchmark {
 public:
  /// `kv_len` ≥ 1 keys of history (the newest the query's position).
  MergeOHeadsBenchmark(bench::BenchmarkInfo info, Variant variant, const ModelConfig& model,
                       uint32_t kv_len, KernelOptions options);
  /// Settings are the split's (the decode attention's axes); the tuned row also needs the merge
  /// by head to take the model (FusedMergeOHeads::ConfigFor).
  ops::Refusal CheckOn(const DeviceLimits& limits) const override;
  std::vector<ops::Axis> OpAxes() const override;
  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  ops::AttentionShape AttentionShapeOf() const;

  const ModelConfig& model_;
  uint32_t kv_len_;
  AttentionInputs inputs_;
  reference::Q4Weight o_;  ///< [hidden, heads · head_dim], MatMulNBits-packed
  uint32_t shares_ = 1;    ///< shares added into each output: the tuned row's groups, else 1
};

/// The merge-o-heads rows: Qwen2.5-0.5B's decode shape (14 query heads, 2 KV heads of 64, o 896
/// × 896) at S = 1024, baseline and tuned.
std::vector<std::unique_ptr<KernelBenchmark>> MergeOHeadsBenchmarks(const KernelOptions& options);

}  // namespace refract::suites::kernels
