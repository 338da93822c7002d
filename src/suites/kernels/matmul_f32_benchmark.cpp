#include "suites/kernels/matmul_f32_benchmark.h"

#include <tuple>

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

/// A shape's inputs: B [K, N] and the model (A, W = Bᵀ) with its reference products.
struct F32Inputs {
  std::vector<float> b;
  std::shared_ptr<const MatmulInputs> model;
};

/// The inputs of the last shape and seed asked for (LastMade): 4096 × 4096 × 4096's took 0.7 s
/// a configuration to make on the H200's host.
std::shared_ptr<const F32Inputs> F32InputsFor(const MatmulShape& shape, uint64_t seed) {
  static LastMade<std::tuple<uint32_t, uint32_t, uint32_t, uint64_t>, F32Inputs> last;
  return last.Get(std::make_tuple(shape.m, shape.k, shape.n, seed), [&] {
    F32Inputs inputs;
    inputs.b = reference::RandomFloats(size_t{shape.k} * shape.n, seed + 1);
    inputs.model = std::make_shared<const MatmulInputs>(
        reference::RandomFloats(size_t{shape.m} * shape.k, seed),
        reference::Transpose(inputs.b, shape.k, shape.n));
    return inputs;
  });
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
  const uint32_t k = shape().k, n = shape().n;
  const std::shared_ptr<const F32Inputs> inputs = F32InputsFor(shape(), options().seed);
  std::vector<float> weights;
  switch (path()) {
    case Path::kBaseline:
      weights = inputs->b;
      break;
    case Path::kGemm:
      weights = reference::PadRows(inputs->b, k, n, RoundUpTo4(n));
      break;
    case Path::kGemv:
    case Path::kGemvQ8:  // not an f32 variant: Build refuses it
      weights = reference::PadRows(inputs->model->w(), n, k, RoundUpTo4(k));
      break;
  }
  Build(context, inputs->model, {Bytes(weights)});
}

std::vector<std::unique_ptr<KernelBenchmark>> MatmulF32Benchmarks(const KernelOptions& options) {
  return MatmulRows<MatmulF32Benchmark>("matmul-f32", Description, options);
}

}  // namespace refract::suites::kernels
