// matmul-q4 rows: C[M, N] = A[M, K] · dequant(B) with 4-bit weights at one shape. Every variant
// multiplies the same logical quantized matrix (reference/llm_q4.h: random codes and scales, zero
// point 8), packed for each: the baseline is seed 003's untiled int4 kernel on the seed's own
// layout (8 codes a u32 along flat [K, N], f32 scale and zero a group of 32 flat elements); the
// tuned kernels read ONNX Runtime's MatMulNBits layout (B [N, ceil(K/32), 16 bytes], scales
// [N, ceil(K/32)]): a GEMV for M = 1 (one vec4<u32> block a load), a tiled GEMM dequantizing
// tiles into workgroup memory for M > 1; tuned-q8 (M = 1) the GEMV on int8 activations
// (reference/llm_q8.h), timed on activations quantized beforehand (as a decode step runs it, the
// quantizer fused into the norm before) or with the quantizer as its own dispatch before it.
// Each variant's reference dequantizes its own layout as that layout's specification says.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "reference/llm_q4.h"
#include "suites/kernels/matmul_benchmark.h"

namespace refract::suites::kernels {

/// How a tuned-q8 row's timed dispatches meet the quantizer.
enum class Q8Timing {
  kPrequantized,   ///< the GEMV alone, on codes the quantizer wrote at Prepare (the headline)
  kWithQuantizer,  ///< the quantizer, then the GEMV, each invocation
};

/// Cost: 2·M·K·N FLOP; bytes: A (tuned-q8: its int8 codes and block scales and sums) and C in
/// f32 once each, and the weights once in the variant's own layout (baseline: the packed words,
/// scales and zeros; tuned: the blocks and scales). A tuned-q8 row with the quantizer counts the
/// same bytes, so its time compares with the headline's directly.
/// A shape's inputs of the tuned rows (matmul_q4_benchmark.cpp).
struct TunedInputs;

class MatmulQ4Benchmark final : public MatmulBenchmark {
 public:
  MatmulQ4Benchmark(bench::BenchmarkInfo info, Variant variant, MatmulShape shape,
                    KernelOptions options = {}, Q8Timing timing = Q8Timing::kPrequantized);

  /// tuned-q8: the quantizer's check too, and a tuned-q8 row at M > 1 is refused.
  ops::Refusal CheckOn(const DeviceLimits& limits) const override;
  /// A uniform in [-1, 1), the quantized matrix from the seed; copies as MatmulF32Benchmark.
  void Prepare(gpu::Context& context) override;
  /// tuned-q8: the quantizer's output against its model (codes within ±1 only at near-ties),
  /// then the GEMV against its arithmetic on those very codes (MatmulTolerance), and, as the
  /// record's model_deviation, the largest difference from the product with f32 activations.
  VerificationRecord Verify(gpu::Context& context) override;

 private:
  /// The q8 GEMV's copies, of tuned_inputs_.
  void PrepareQ8(gpu::Context& context);

  Q8Timing timing_;
  /// Tuned rows: the shape's inputs, shared with the other configurations of the shape (the
  /// tuned-q8 check reads them).
  std::shared_ptr<const TunedInputs> tuned_inputs_;
};

/// Both variants at every MatmulCatalogShapes() shape, and at M = 1 the tuned-q8 rows (ids
/// "…/m1/tuned-q8" and, with the quantizer, "…/m1/tuned-q8+quantize"); ids
/// "matmul-q4/<model>/<op>/m<M>/…".
std::vector<std::unique_ptr<KernelBenchmark>> MatmulQ4Benchmarks(const KernelOptions& options = {});

/// The suffix of a tuned-q8 row timed with its quantizer.
inline constexpr char kWithQuantizerSuffix[] = "+quantize";

}  // namespace refract::suites::kernels
