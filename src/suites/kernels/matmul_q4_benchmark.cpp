#include "suites/kernels/matmul_q4_benchmark.h"

#include "reference/llm_matmul.h"
#include "reference/llm_q4.h"
#include "reference/random_data.h"

namespace refract::suites::kernels {
namespace {

using reference::kSeedGroupSize;
using reference::Q4Blocks;
using reference::RoundUpTo4;

std::string Description(Variant variant, const MatmulShape& shape) {
  if (variant == Variant::kBaseline) {
    return "seed 003's untiled int4 matmul on its own layout (8 codes a u32 along [K, N])";
  }
  if (shape.m == 1) return "q4 GEMV on MatMulNBits blocks (one vec4<u32> a load)";
  return "tiled q4 GEMM on MatMulNBits, tiles dequantized into workgroup memory";
}

/// The weights in the variant's own layout [bytes].
uint64_t WeightBytes(Variant variant, const MatmulShape& shape) {
  const uint64_t k = shape.k, n = shape.n;
  if (variant == Variant::kBaseline) {
    const uint64_t groups = (k * n + kSeedGroupSize - 1) / kSeedGroupSize;
    return (k * n + 7) / 8 * 4 + 2 * groups * 4;  // words, scales, zeros
  }
  return n * Q4Blocks(shape.k) * (16 + 4);  // blocks and scales
}

KernelCost Q4Cost(Variant variant, const MatmulShape& shape) {
  const double m = shape.m, k = shape.k, n = shape.n;
  return {.flops = 2 * m * k * n,
          .bytes = 4 * (m * k + m * n) + static_cast<double>(WeightBytes(variant, shape))};
}

}  // namespace

MatmulQ4Benchmark::MatmulQ4Benchmark(bench::BenchmarkInfo info, Variant variant, MatmulShape shape,
                                     KernelOptions options)
    : MatmulBenchmark(std::move(info), variant, shape, Q4Cost(variant, shape), std::move(options),
                      ops::Weights::kQ4) {
  SetParam("dtype", "q4");
  SetParam("b_layout", variant == Variant::kBaseline ? "seed-int4 [K, N], group 32"
                                                     : "matmulnbits [N, K/32, 16], block 32");
}

void MatmulQ4Benchmark::Prepare(gpu::Context& context) {
  RequireRunnable(context);
  const uint32_t m = shape().m, k = shape().k, n = shape().n;
  std::vector<float> a = reference::RandomFloats(size_t{m} * k, options().seed);
  const reference::Q4Matrix matrix = reference::RandomQ4Matrix(k, n, options().seed + 1);
  if (path() == Path::kBaseline) {
    const reference::SeedInt4Packing packing = reference::PackSeedInt4(matrix);
    std::vector<float> w = reference::DequantizeSeedInt4(packing, k, n);
    Build(context, std::move(a), std::move(w),
          {Bytes(packing.packed), Bytes(packing.scales), Bytes(packing.zeros)});
    return;
  }
  const reference::MatMulNBitsPacking packing = reference::PackMatMulNBits(matrix);
  std::vector<float> w = reference::DequantizeMatMulNBits(packing, k, n);
  Build(context, std::move(a), std::move(w), {Bytes(packing.b), Bytes(packing.scales)});
}

std::vector<std::unique_ptr<KernelBenchmark>> MatmulQ4Benchmarks(const KernelOptions& options) {
  return MatmulRows<MatmulQ4Benchmark>("matmul-q4", Description, options);
}

}  // namespace refract::suites::kernels
