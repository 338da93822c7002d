// RoPE rows of the kernels suite: the seed's one-thread-a-pair kernel (baseline) and the
// precomputed-frequency, several-heads-a-thread vec4 kernel (tuned), in place on q and k.
#pragma once

#include <memory>
#include <vector>

#include "ops/op_kinds.h"
#include "reference/llm_rope.h"
#include "suites/kernels/op_row.h"

namespace refract::suites::kernels {

/// One RoPE row (in place: each invocation rotates q and k again, which keeps their norms).
/// Metric: B/s with bytes = q and k read once and written once; FLOP for the roofline: 3 a
/// value. Verify uploads fresh q and k into copy 0, runs one invocation and compares both.
class RopeBenchmark final : public OpRow<ops::RopeShape, ops::RopeConfig, ops::RopeBuffers> {
 public:
  /// Tuned rows take the tuned op's axes (wg, hpt) from the options' settings.
  RopeBenchmark(bench::BenchmarkInfo info, Variant variant, reference::RopeShape shape,
                KernelOptions options = {});

  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  std::vector<float> q_, k_;
};

/// The catalog's RoPE rows, baseline and tuned: Qwen2.5-0.5B (θ 1e6, 14 q / 2 k heads × 64)
/// and EmbeddingGemma 2 (θ 1e4, 4 q / 2 k heads × 256) at T = 1 (position 4095), 50, 128 and
/// 2048 (from position 0).
std::vector<std::unique_ptr<KernelBenchmark>> RopeBenchmarks(const KernelOptions& options = {});

}  // namespace refract::suites::kernels
