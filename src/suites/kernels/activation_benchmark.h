// Activation rows of the kernels suite: SiLU, GELU (tanh) and the fused SwiGLU combine
// silu(gate) · up, as the seed's scalar kernels (silu-mul: the seed's silu, then its mul) and as
// vec4 kernels (tuned; silu-mul in one pass).
#pragma once

#include <memory>
#include <vector>

#include "ops/op_kinds.h"
#include "suites/kernels/op_row.h"

namespace refract::suites::kernels {

using ops::ActivationKind;
using ops::ActivationKindName;

/// One activation row over `count` values (T × the FFN width). Inputs: x (gate) uniform in
/// [−8, 8), up in [−2, 2). Metric: B/s with bytes = inputs read once + output written once
/// (8 · count; 12 · count for silu-mul); FLOP for the roofline: 4 a value (silu), 9 (gelu),
/// 5 (silu-mul). Verify compares every output.
class ActivationBenchmark final
    : public OpRow<ops::ActivationShape, ops::ActivationConfig, ops::ActivationBuffers> {
 public:
  /// Tuned rows take the tuned op's axes (wg, ept) from the options' settings.
  ActivationBenchmark(bench::BenchmarkInfo info, Variant variant, ActivationKind kind,
                      uint64_t count, KernelOptions options = {});

  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  std::vector<float> x_, up_;
};

/// The catalog's activation rows: each kind, baseline and tuned, over T = 1, 50, 128, 2048
/// rows of the FFN widths 4864 (Qwen2.5-0.5B) and 2048 (EmbeddingGemma 2).
std::vector<std::unique_ptr<KernelBenchmark>> ActivationBenchmarks(
    const KernelOptions& options = {});

}  // namespace refract::suites::kernels
