// Softmax rows of the kernels suite at attention-score shapes (rows = heads · T, row = S): the
// seed's three-pass kernel (baseline) and the one-read, register-resident kernel (tuned).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "ops/op_kinds.h"
#include "suites/kernels/op_row.h"

namespace refract::suites::kernels {

/// One softmax problem: `rows` rows of `row_size` f32 values.
using ops::SoftmaxShape;

/// Deterministic logits: uniform in [−8, 8), except rows r ≡ 1 (mod 4), shifted by +90 (all
/// in [82, 98)), and rows r ≡ 3 (mod 4), holding one spike of 97: without the max subtraction
/// their exponentials overflow f32.
std::vector<float> MakeSoftmaxInput(const SoftmaxShape& shape, uint64_t seed);

/// One softmax row. Metric: B/s with bytes = the input read once and the output written once
/// (8 · rows · row_size); FLOP = 5 a value (max, subtract, exp, add, scale), for the roofline.
/// Verify compares every output when rows · row_size ≤ 2^22, else 256 sampled whole rows (the
/// first and last among them).
class SoftmaxBenchmark final
    : public OpRow<ops::SoftmaxShape, ops::RowConfig, ops::SoftmaxBuffers> {
 public:
  /// Tuned rows take the tuned op's axes (wg, vpt, subgroups) from the options' settings.
  SoftmaxBenchmark(bench::BenchmarkInfo info, Variant variant, SoftmaxShape shape,
                   KernelOptions options = {});

  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  std::vector<float> input_;
};

/// The catalog's softmax rows, baseline and tuned each, at the attention scores of
/// Qwen2.5-0.5B decode (14 rows of S = 128, 1024, 4096), its prefill (T = 50: 700 rows of 50;
/// T = 2048: 28,672 rows of 2048) and EmbeddingGemma 2 at T = 128 (512 rows of 128).
std::vector<std::unique_ptr<KernelBenchmark>> SoftmaxBenchmarks(const KernelOptions& options = {});

}  // namespace refract::suites::kernels
