#include "suites/kernels/matmul_f32_benchmark.h"

#include <algorithm>

#include "base/error.h"
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "reference/llm_matmul.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_pipeline.h"

namespace refract::suites::kernels {
namespace {

using reference::RoundUpTo4;

std::string Description(Variant variant, const MatmulShape& shape) {
  if (variant == Variant::kBaseline) return "seed 003's 16x16 tiled f32 matmul, B as [K, N]";
  if (shape.m == 1) return "f32 GEMV, W as [N, K], vec4 rows, row sums in a subgroup or tree";
  return "register-blocked vec4 f32 GEMM, B as [K, N], tiles in workgroup memory";
}

}  // namespace

MatmulF32Benchmark::MatmulF32Benchmark(bench::BenchmarkInfo info, Variant variant,
                                       MatmulShape shape, MatmulOptions options)
    : KernelBenchmark(std::move(info), variant, Metric::kFlops),
      shape_(std::move(shape)),
      options_(options),
      gemm_(options.gemm.value_or(DefaultGemmConfig(shape_, false))),
      gemv_(options.gemv.value_or(DefaultGemvConfig(false))) {
  SetParam("dtype", "f32");
}

MatmulF32Benchmark::Path MatmulF32Benchmark::path() const {
  if (variant() == Variant::kBaseline) return Path::kBaseline;
  return shape_.m == 1 ? Path::kGemv : Path::kGemm;
}

std::optional<std::string> MatmulF32Benchmark::MissingRequirement(
    const gpu::Context& context) const {
  const uint64_t b_bytes = uint64_t{shape_.k} * RoundUpTo4(shape_.n) * 4;
  const uint64_t w_bytes = uint64_t{shape_.n} * RoundUpTo4(shape_.k) * 4;
  const uint64_t c_bytes = uint64_t{shape_.m} * RoundUpTo4(shape_.n) * 4;
  if (auto problem =
          BindingProblem(context, std::max({b_bytes, w_bytes, c_bytes}), "the product")) {
    return problem;
  }
  if (path() == Path::kGemm) return GemmConfigProblem(context, gemm_, false);
  if (path() == Path::kGemv) return GemvConfigProblem(context, gemv_);
  return std::nullopt;
}

void MatmulF32Benchmark::Prepare(gpu::Context& context) {
  if (auto problem = MissingRequirement(context)) throw UsageError(info().id + ": " + *problem);
  const uint32_t m = shape_.m, k = shape_.k, n = shape_.n;
  a_ = reference::RandomFloats(size_t{m} * k, options_.seed);
  const std::vector<float> b = reference::RandomFloats(size_t{k} * n, options_.seed + 1);
  w_ = reference::Transpose(b, k, n);

  std::vector<float> a_data, b_data;
  uint32_t c_rows = m, groups_x = 1, groups_y = 1;
  gpu::ComputePipeline pipeline;
  switch (path()) {
    case Path::kBaseline:
      a_data = a_;
      b_data = b;
      c_stride_ = n;
      pipeline = CompileKernel(context, {"llm_matmul_f32_baseline"}, info().id);
      groups_x = (n + 15) / 16;
      groups_y = (m + 15) / 16;
      break;
    case Path::kGemm:
      a_data = reference::PadRows(a_, m, k, RoundUpTo4(k));
      b_data = reference::PadRows(b, k, n, RoundUpTo4(n));
      c_stride_ = RoundUpTo4(n);
      pipeline = CompileGemm(context, "llm_matmul_f32_tuned_gemm", gemm_, info().id);
      groups_x = (n + gemm_.bn - 1) / gemm_.bn;
      groups_y = (m + gemm_.bm - 1) / gemm_.bm;
      for (const auto& [name, value] : GemmParams(gemm_)) SetParam(name, value);
      break;
    case Path::kGemv: {
      a_data = reference::PadRows(a_, 1, k, RoundUpTo4(k));
      b_data = reference::PadRows(w_, n, k, RoundUpTo4(k));
      c_stride_ = n;
      const bool subgroups = UseSubgroupReduction(context, gemv_, options_.portable);
      pipeline = CompileGemv(context, "llm_matmul_f32_tuned_gemv", gemv_, subgroups, info().id);
      groups_x = gpu::GroupsFor(n, gemv_.RowsPerWorkgroup());
      for (const auto& [name, value] : GemvParams(gemv_, subgroups)) SetParam(name, value);
      break;
    }
  }
  SetParam("b_layout", path() == Path::kGemv ? "[N, K]" : "[K, N]");

  const uint64_t input_bytes = (a_data.size() + b_data.size()) * sizeof(float);
  const uint64_t footprint = options_.cold_footprint_bytes != 0
                                 ? options_.cold_footprint_bytes
                                 : DefaultColdFootprintBytes(context);
  const uint32_t copies = ColdCopies(input_bytes, footprint);
  gpu::Buffer params = gpu::Uniform(context, MatmulParams{m, k, n, 0});
  for (uint32_t copy = 0; copy < copies; ++copy) {
    gpu::Buffer a = gpu::Upload(context, a_data, gpu::kUsageStorage, "A");
    gpu::Buffer b_buffer = gpu::Upload(context, b_data, gpu::kUsageStorage, "B");
    gpu::Buffer c = context.CreateBuffer(uint64_t{c_rows} * c_stride_ * sizeof(float),
                                         gpu::kUsageStorage | gpu::kUsageCopySrc, "C");
    dispatches_.push_back(gpu::DispatchBuilder(context, pipeline)
                              .Buffer(0, a)
                              .Buffer(1, b_buffer)
                              .Buffer(2, c)
                              .Buffer(3, params)
                              .Groups(groups_x, groups_y)
                              .Build());
    outputs_.push_back(c);
  }
  SetRotation(copies, copies * input_bytes >= footprint);
}

VerificationRecord MatmulF32Benchmark::Verify(gpu::Context& context) {
  REFRACT_THROW_IF(dispatches_.empty(), Error, info().id + ": Verify before Prepare");
  context.RunPass(dispatches_.front(), 1, false);
  const std::vector<float> c = gpu::Download<float>(context, outputs_.front());
  return CheckMatmulOutput(info().id, c, c_stride_, shape_, a_, w_, options_.seed);
}

void MatmulF32Benchmark::Release() {
  dispatches_.clear();
  outputs_.clear();
  a_ = {};
  w_ = {};
}

KernelCost MatmulF32Benchmark::Cost() const {
  const double m = shape_.m, k = shape_.k, n = shape_.n;
  return {.flops = 2 * m * k * n, .bytes = 4 * (m * k + k * n + m * n)};
}

std::vector<std::unique_ptr<KernelBenchmark>> MatmulF32Benchmarks(const MatmulOptions& options) {
  std::vector<std::unique_ptr<KernelBenchmark>> rows;
  for (const MatmulShape& shape : MatmulCatalogShapes()) {
    for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
      rows.push_back(std::make_unique<MatmulF32Benchmark>(
          MatmulInfo("matmul-f32", shape, variant, Description(variant, shape)), variant, shape,
          options));
    }
  }
  return rows;
}

}  // namespace refract::suites::kernels
