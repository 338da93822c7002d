// Attention rows of the kernels suite: the seed's thread-0 kernel (baseline) and the flash-style
// kernel with split-K decode and causal prefill (tuned), at the models' shapes.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "reference/llm_attention.h"
#include "suites/kernels/kernel_benchmark.h"
#include "suites/kernels/kernel_support.h"

namespace refract::suites::kernels {

/// The tuned kernel's tiling (llm_attention_tuned.wgsl's overrides) and its split of the keys.
struct AttentionTiles {
  uint32_t tr = 16;         ///< TR: thread rows
  uint32_t tc = 16;         ///< TC: threads sharing a row block
  uint32_t rq = 2;          ///< RQ: rows a thread owns
  uint32_t rk = 2;          ///< RK: keys a thread scores a tile
  uint32_t v_tiles = 2;     ///< V_TILES: 2 = V in its own tile, 1 = V reuses K's
  uint32_t split_keys = 0;  ///< keys one split covers (host knob SPLIT_KEYS); 0: one split

  uint32_t threads() const { return tr * tc; }
  uint32_t block_rows() const { return tr * rq; }  ///< BQ
  uint32_t tile_keys() const { return tc * rk; }   ///< BK
  /// Workgroup memory of the kernel with these tiles at `head_dim` [bytes].
  uint64_t WorkgroupBytes(uint32_t head_dim) const;
  /// The WGSL override constants.
  std::map<std::string, double> Constants(uint32_t head_dim) const;
};

/// The tiles a tuned row runs: defaults for its path (decode = one query position: 8 rows, 64
/// keys a tile; prefill otherwise: 64 rows, 32 keys) shrunk until they fit the device's
/// workgroup memory, then the `overrides` (TR, TC, RQ, RK, V_TILES, SPLIT_KEYS) on top; a
/// result that does not fit throws UsageError naming the limit. Without SPLIT_KEYS, a row whose
/// row blocks make fewer than 128 workgroups splits its keys into whole tiles until the grid
/// reaches 128 (decode at S = 4096: 64 splits of 64 keys).
AttentionTiles ResolveAttentionTiles(const gpu::Context& context,
                                     const reference::AttentionShape& shape,
                                     const std::map<std::string, double>& overrides);

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
class AttentionBenchmark final : public KernelBenchmark {
 public:
  /// The baseline is the seed's causal kernel: a non-causal shape throws UsageError, as does a
  /// tuned shape whose head_dim is not a multiple of 4 or above 512. Tuned rows know the
  /// overrides of ResolveAttentionTiles (UsageError at Prepare for any other).
  AttentionBenchmark(bench::BenchmarkInfo info, Variant variant, reference::AttentionShape shape,
                     KernelOptions options = {});

  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  /// What every copy's dispatches share: the pipelines (the tuned split path's combine too)
  /// and the uniform.
  struct Kernels {
    gpu::ComputePipeline main, combine;
    gpu::Buffer params;
  };
  /// Dispatches of one invocation reading `q`, `k`, `v` and writing `out`.
  std::vector<gpu::Dispatch> Build(gpu::Context& context, const Kernels& kernels,
                                   const gpu::Buffer& q, const gpu::Buffer& k, const gpu::Buffer& v,
                                   const gpu::Buffer& out) const;

  reference::AttentionShape shape_;
  AttentionInputs inputs_;
  AttentionTiles tiles_;
  uint32_t splits_ = 1;
};

/// The catalog's attention rows, baseline and tuned each: Qwen2.5-0.5B decode at S = 128, 1024,
/// 4096 and causal prefill at T = 50, 2048; EmbeddingGemma 2 at T = 128 causal, plus its
/// encoder form (non-causal, tuned only: the seed's kernel is causal).
std::vector<std::unique_ptr<KernelBenchmark>> AttentionBenchmarks(
    const KernelOptions& options = {});

}  // namespace refract::suites::kernels
