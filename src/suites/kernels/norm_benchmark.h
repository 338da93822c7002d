// Normalisation rows of the kernels suite: RMSNorm, LayerNorm and the fused residual add +
// RMSNorm, each as the seed's kernel(s) (baseline) and one register-resident kernel (tuned).
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "reference/llm_norm.h"
#include "suites/kernels/kernel_benchmark.h"
#include "suites/kernels/kernel_support.h"

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
  /// WG · 16 · 4 throws UsageError at Prepare.
  NormBenchmark(bench::BenchmarkInfo info, Variant variant, NormKind kind,
                reference::NormShape shape, KernelOptions options = {});

  std::optional<std::string> MissingRequirement(const gpu::Context& context) const override;
  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;
  std::span<const gpu::Dispatch> Dispatches() const override { return dispatches_; }
  void Release() override;
  KernelCost Cost() const override;

 private:
  /// The input buffers of one copy.
  struct Copy {
    gpu::Buffer x, b, weight, bias, h, y;
  };
  std::vector<gpu::Dispatch> Build(gpu::Context& context, const Copy& copy);

  NormKind kind_;
  reference::NormShape shape_;
  KernelOptions options_;
  NormInputs inputs_;
  gpu::ComputePipeline first_, second_;  ///< baseline add-rmsnorm: add, then rmsnorm
  gpu::Buffer params_, add_params_;
  std::vector<Copy> copies_;
  std::vector<gpu::Dispatch> dispatches_;
  size_t dispatches_per_copy_ = 1;
};

/// The catalog's normalisation rows: each kind, baseline and tuned, at hidden 896
/// (Qwen2.5-0.5B) and 512 (EmbeddingGemma 2), T = 1, 50, 128, 2048, eps 1e-6.
std::vector<std::unique_ptr<KernelBenchmark>> NormBenchmarks(const KernelOptions& options = {});

}  // namespace refract::suites::kernels
