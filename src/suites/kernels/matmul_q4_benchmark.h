// matmul-q4 rows: C[M, N] = A[M, K] · dequant(B) with 4-bit weights at one shape. Both variants
// multiply the same logical quantized matrix (reference/llm_q4.h: random codes and scales, zero
// point 8), packed for each: the baseline is seed 003's untiled int4 kernel on the seed's own
// layout (8 codes a u32 along flat [K, N], f32 scale and zero a group of 32 flat elements); the
// tuned kernels read ONNX Runtime's MatMulNBits layout (B [N, ceil(K/32), 16 bytes], scales
// [N, ceil(K/32)]): a GEMV for M = 1 (one vec4<u32> block a load), a tiled GEMM dequantizing
// tiles into workgroup memory for M > 1. Each variant's reference dequantizes its own layout as
// that layout's specification says.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "suites/kernels/matmul_benchmark.h"

namespace refract::suites::kernels {

/// Cost: 2·M·K·N FLOP; bytes: A and C in f32 once each, and the weights once in the variant's
/// own layout (baseline: the packed words, scales and zeros; tuned: the blocks and scales).
class MatmulQ4Benchmark final : public MatmulBenchmark {
 public:
  MatmulQ4Benchmark(bench::BenchmarkInfo info, Variant variant, MatmulShape shape,
                    KernelOptions options = {});

  /// A uniform in [-1, 1), the quantized matrix from the seed; copies as MatmulF32Benchmark.
  void Prepare(gpu::Context& context) override;
};

/// Both variants at every MatmulCatalogShapes() shape; ids "matmul-q4/<model>/<op>/m<M>/…".
std::vector<std::unique_ptr<KernelBenchmark>> MatmulQ4Benchmarks(const KernelOptions& options = {});

}  // namespace refract::suites::kernels
