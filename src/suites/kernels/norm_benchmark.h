// Normalisation rows of the kernels suite: RMSNorm, LayerNorm and the fused residual add +
// RMSNorm, each as the seed's kernel(s) (baseline) and one register-resident kernel (tuned).
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "reference/llm_norm.h"
#include "suites/kernels/kernel_benchmark.h"

namespace refract::suites::kernels {

enum class NormKind {
  kRmsNorm,     ///< y = RMSNorm(x) · weight
  kLayerNorm,   ///< y = LayerNorm(x) · weight + bias
  kAddRmsNorm,  ///< h = a + b, y = RMSNorm(h) · weight; baseline: the seed's add, then rmsnorm
};

/// "rmsnorm", "layernorm", "add-rmsnorm".
std::string_view NormKindName(NormKind kind);

/// Deterministic inputs: x (or a) uniform in [−2, 2) plus 40 · (row mod 3), so rows have means
/// of 0, 40 and 80 (a variance from E[x²] − mean² loses most of its digits there); b uniform
/// in [−2, 2); weight in [0.5, 1.5); bias in [−1, 1).
struct NormInputs {
  std::vector<float> x, b, weight, bias;
};
NormInputs MakeNormInputs(NormKind kind, const reference::NormShape& shape, uint64_t seed);

/// One normalisation row. Metric: B/s with bytes = each input read once (x, and b for the add;
/// weight and bias once an invocation) and each output written once (y, and h for the add).
/// FLOP for the roofline: 4 a value (rmsnorm), 8 (layernorm), 5 (add-rmsnorm). Verify compares
/// every output (and h exactly: an f32 add).
class NormBenchmark final : public KernelBenchmark {
 public:
  /// The tuned kernel keeps the whole row in registers: a hidden size beyond
  /// WG · 16 · 4 throws UsageError at Prepare. Tuned rows know the overrides WG and VPT
  /// (UsageError at Prepare for any other).
  NormBenchmark(bench::BenchmarkInfo info, Variant variant, NormKind kind,
                reference::NormShape shape, KernelOptions options = {});

  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  /// What every copy's dispatches share: the pipelines (baseline add-rmsnorm: add, then
  /// rmsnorm) and the uniforms.
  struct Kernels {
    gpu::ComputePipeline first, second;
    gpu::Buffer params, add_params;
  };
  /// The buffers of one copy.
  struct Buffers {
    gpu::Buffer x, b, weight, bias, h, y;
  };
  std::vector<gpu::Dispatch> Build(gpu::Context& context, const Kernels& kernels,
                                   const Buffers& c) const;

  NormKind kind_;
  reference::NormShape shape_;
  NormInputs inputs_;
};

/// The catalog's normalisation rows: each kind, baseline and tuned, at hidden 896
/// (Qwen2.5-0.5B) and 512 (EmbeddingGemma 2), T = 1, 50, 128, 2048, eps 1e-6.
std::vector<std::unique_ptr<KernelBenchmark>> NormBenchmarks(const KernelOptions& options = {});

}  // namespace refract::suites::kernels
