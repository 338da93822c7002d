// Attention rows of the kernels suite: the seed's thread-0 kernel (baseline) and the flash-style
// kernel with split-K decode and causal prefill (tuned), at the models' shapes.
#pragma once

#include <memory>
#include <vector>

#include "ops/op_kinds.h"
#include "reference/llm_attention.h"
#include "suites/kernels/op_row.h"

namespace refract::suites::kernels {

/// Deterministic inputs. K and V are uniform in [−1, 1), Q in [−2, 2) except every fourth row
/// (t, head), which is c · k_s* for the newest key s* it sees, c making that logit 96: a
/// softmax without the max subtraction overflows f32 there (e^96), and a kernel that drops the
/// last tile or split loses the row's dominant key.
struct AttentionInputs {
  std::vector<float> q, k, v;
};
AttentionInputs MakeAttentionInputs(const reference::AttentionShape& shape, uint64_t seed);

/// One attention row. Metric: FLOP/s with FLOP = 4 · d · heads · (unmasked query-key pairs):
/// 2 for each multiply-add of QKᵀ and 2 for each of P·V; a causal row counts only the pairs it
/// does not mask. Bytes: Q, K, V read once, the output written once.
/// Verify compares every output when T · heads · S · d ≤ 2^25, else 64 sampled query positions
/// (the first and last among them) × every head.
class AttentionBenchmark final
    : public OpRow<ops::AttentionShape, ops::AttentionConfig, ops::AttentionBuffers> {
 public:
  /// The baseline is the seed's causal kernel (a non-causal shape is `skipped`). Tuned rows of
  /// one query position run the split-KV decode kernel (axes wg, splits, subgroups), the others
  /// the flash kernel (tr, tc, rq, rk, v_tiles, split_keys), from the options' settings. An
  /// unsound shape (no heads, heads not a multiple of kv_heads) throws UsageError.
  AttentionBenchmark(bench::BenchmarkInfo info, Variant variant, reference::AttentionShape shape,
                     KernelOptions options = {});

  /// Settings no tuned op of attention knows; then the decode kernel's rules (tuned, T = 1),
  /// the flash kernel's (tuned, T > 1) or the seed's.
  ops::Refusal CheckOn(const DeviceLimits& limits) const override;
  /// The split-KV decode kernel's axes for one new token, the flash kernel's otherwise.
  std::vector<ops::Axis> OpAxes() const override;
  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  /// A tuned row of one query position: the split-KV decode kernel's.
  bool Decodes() const;
  ops::AttentionDecodeConfig DecodeConfig(const DeviceLimits& limits) const;

  AttentionInputs inputs_;
};

/// The catalog's attention rows, baseline and tuned each: Qwen2.5-0.5B decode at S = 128, 1024,
/// 4096 and causal prefill at T = 50, 2048; EmbeddingGemma 2 at T = 128 causal, plus its
/// encoder form (non-causal, tuned only: the seed's kernel is causal).
std::vector<std::unique_ptr<KernelBenchmark>> AttentionBenchmarks(
    const KernelOptions& options = {});

}  // namespace refract::suites::kernels
