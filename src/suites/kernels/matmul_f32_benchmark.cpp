#include "suites/kernels/matmul_f32_benchmark.h"

#include "reference/llm_matmul.h"
#include "reference/random_data.h"

namespace refract::suites::kernels {
namespace {

using reference::RoundUpTo4;

std::string Description(Variant variant, const MatmulShape& shape) {
  if (variant == Variant::kBaseline) return "seed 003's 16x16 tiled f32 matmul, B as [K, N]";
  if (shape.m == 1) return "f32 GEMV, W as [N, K], vec4 rows, row sums in a subgroup or tree";
  return "register-blocked vec4 f32 GEMM, B as [K, N], tiles in workgroup memory";
}

KernelCost F32Cost(const MatmulShape& shape) {
  const double m = shape.m, k = shape.k, n = shape.n;
  return {.flops = 2 * m * k * n, .bytes = 4 * (m * k + k * n + m * n)};
}

}  // namespace

MatmulF32Benchmark::MatmulF32Benchmark(bench::BenchmarkInfo info, Variant variant,
                                       MatmulShape shape, KernelOptions options)
    : MatmulBenchmark(std::move(info), variant, shape, F32Cost(shape), std::move(options),
                      ops::Weights::kF32) {
  SetParam("dtype", "f32");
  SetParam("b_layout", variant == Variant::kTuned && this->shape().m == 1 ? "[N, K]" : "[K, N]");
}

void MatmulF32Benchmark::Prepare(gpu::Context& context) {
  RequireRunnable(context);
  const uint32_t m = shape().m, k = shape().k, n = shape().n;
  std::vector<float> a = reference::RandomFloats(size_t{m} * k, options().seed);
  const std::vector<float> b = reference::RandomFloats(size_t{k} * n, options().seed + 1);
  std::vector<float> w = reference::Transpose(b, k, n);
  std::vector<float> weights;
  switch (path()) {
    case Path::kBaseline:
      weights = b;
      break;
    case Path::kGemm:
      weights = reference::PadRows(b, k, n, RoundUpTo4(n));
      break;
    case Path::kGemv:
    case Path::kGemvQ8:  // not an f32 variant: Build refuses it
      weights = reference::PadRows(w, n, k, RoundUpTo4(k));
      break;
  }
  Build(context, std::move(a), std::move(w), {Bytes(weights)});
}

std::vector<std::unique_ptr<KernelBenchmark>> MatmulF32Benchmarks(const KernelOptions& options) {
  return MatmulRows<MatmulF32Benchmark>("matmul-f32", Description, options);
}

}  // namespace refract::suites::kernels
