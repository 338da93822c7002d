// Normalisation rows of the kernels suite: RMSNorm, LayerNorm and the fused residual add +
// RMSNorm, each as the seed's kernel(s) (baseline) and one register-resident kernel (tuned), run
// through ops/norm_op.h.
#pragma once

#include <memory>
#include <vector>

#include "ops/op_kinds.h"
#include "reference/llm_norm.h"
#include "suites/kernels/op_row.h"

namespace refract::suites::kernels {

using ops::NormKind;
using ops::NormKindName;

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
class NormBenchmark final : public OpRow<ops::NormShape, ops::RowConfig, ops::NormBuffers> {
 public:
  /// Tuned rows take the tuned op's axes (wg, vpt, subgroups) from the options' settings.
  NormBenchmark(bench::BenchmarkInfo info, Variant variant, NormKind kind,
                reference::NormShape shape, KernelOptions options = {});

  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  NormInputs inputs_;
};

/// The catalog's normalisation rows: each kind, baseline and tuned, at hidden 896
/// (Qwen2.5-0.5B) and 512 (EmbeddingGemma 2), T = 1, 50, 128, 2048, eps 1e-6.
std::vector<std::unique_ptr<KernelBenchmark>> NormBenchmarks(const KernelOptions& options = {});

}  // namespace refract::suites::kernels
