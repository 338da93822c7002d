// matmul-f32 rows: C[M, N] = A[M, K] · B[K, N] in f32 at one shape, as seed 003's 16 × 16 tiled
// kernel (baseline, B as [K, N]) or the project's best (tuned): for M > 1 a register-blocked
// vec4 GEMM reading B as [K, N], for M = 1 a GEMV reading the weight as Wᵀ [N, K] (the LLM
// layout). The tuned kernels' rows of A, B/W and C are padded with zeros to a multiple of 4
// floats (vec4 loads); the reference is the same product of the same logical A and B.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "suites/kernels/matmul_benchmark.h"

namespace refract::suites::kernels {

/// Cost: 2·M·K·N FLOP; bytes: A, B and C once each at their logical (unpadded) f32 sizes.
class MatmulF32Benchmark final : public MatmulBenchmark {
 public:
  MatmulF32Benchmark(bench::BenchmarkInfo info, Variant variant, MatmulShape shape,
                     KernelOptions options = {});

  /// A and B uniform in [-1, 1) from the seed; as many copies of A, B and C as the cold
  /// footprint asks for (each copy the same values), one dispatch each.
  void Prepare(gpu::Context& context) override;
};

/// Both variants at every MatmulCatalogShapes() shape; ids "matmul-f32/<model>/<op>/m<M>/…".
std::vector<std::unique_ptr<KernelBenchmark>> MatmulF32Benchmarks(
    const KernelOptions& options = {});

}  // namespace refract::suites::kernels
