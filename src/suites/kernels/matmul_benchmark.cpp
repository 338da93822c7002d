#include "suites/kernels/matmul_benchmark.h"

#include "base/error.h"
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "reference/llm_matmul.h"
#include "suites/kernels/kernel_pipeline.h"

namespace refract::suites::kernels {

using reference::RoundUpTo4;

MatmulBenchmark::MatmulBenchmark(bench::BenchmarkInfo info, Variant variant, MatmulShape shape,
                                 KernelCost cost, uint64_t largest_binding_bytes,
                                 KernelOptions options, bool q4, KernelFiles files)
    : KernelBenchmark(std::move(info), variant, Metric::kFlops, cost, largest_binding_bytes,
                      std::move(options)),
      shape_(std::move(shape)),
      files_(files),
      q4_(q4) {
  const MatmulOverrides overrides = ParseMatmulOverrides(this->options().overrides, q4);
  gemm_ = overrides.gemm;
  gemv_ = overrides.gemv;
}

MatmulBenchmark::Path MatmulBenchmark::path() const {
  if (variant() == Variant::kBaseline) return Path::kBaseline;
  return shape_.m == 1 ? Path::kGemv : Path::kGemm;
}

GemmConfig MatmulBenchmark::Gemm(const gpu::Context& context) const {
  return gemm_.value_or(
      DefaultGemmConfig(shape_, q4_, context.limits().max_compute_workgroup_storage_size));
}

GemvConfig MatmulBenchmark::Gemv(const gpu::Context& context) const {
  return gemv_.value_or(
      DefaultGemvConfig(q4_, shape_.n, context.description().adapter_type == "cpu"));
}

std::optional<std::string> MatmulBenchmark::MissingRequirement(const gpu::Context& context) const {
  if (auto problem = BindingProblem(context, largest_binding_bytes(), "the product")) {
    return problem;
  }
  if (path() == Path::kGemm) return GemmConfigProblem(context, Gemm(context), q4_);
  if (path() == Path::kGemv) return GemvConfigProblem(context, Gemv(context), q4_);
  return std::nullopt;
}

void MatmulBenchmark::Build(gpu::Context& context, std::vector<float> a, std::vector<float> w,
                            const std::vector<std::span<const std::byte>>& weights,
                            const gpu::Buffer& uniform) {
  const uint32_t m = shape_.m, k = shape_.k, n = shape_.n;
  a_ = std::move(a);
  w_ = std::move(w);
  std::vector<float> a_data;
  gpu::ComputePipeline pipeline;
  uint32_t groups_x = 1, groups_y = 1;
  switch (path()) {
    case Path::kBaseline:
      a_data = a_;
      c_stride_ = n;
      pipeline = CompileKernel(context, {files_.baseline}, info().id);
      groups_x = (n + 15) / 16;
      groups_y = (m + 15) / 16;
      break;
    case Path::kGemm: {
      const GemmConfig gemm = Gemm(context);
      a_data = reference::PadRows(a_, m, k, RoundUpTo4(k));
      c_stride_ = RoundUpTo4(n);
      pipeline = CompileGemm(context, files_.gemm, gemm, info().id);
      groups_x = (n + gemm.bn - 1) / gemm.bn;
      groups_y = (m + gemm.bm - 1) / gemm.bm;
      for (const auto& [name, value] : GemmParams(gemm)) SetParam(name, value);
      break;
    }
    case Path::kGemv: {
      a_data = reference::PadRows(a_, 1, k, RoundUpTo4(k));
      c_stride_ = n;
      const GemvConfig gemv = Gemv(context);
      const bool subgroups = UseSubgroupReduction(context, gemv, options().portable);
      pipeline = CompileGemv(context, files_.gemv, gemv, subgroups, info().id);
      groups_x = gpu::GroupsFor(n, gemv.RowsPerWorkgroup());
      for (const auto& [name, value] : GemvParams(gemv, subgroups)) SetParam(name, value);
      break;
    }
  }

  uint64_t input_bytes = a_data.size() * sizeof(float);
  for (std::span<const std::byte> bytes : weights) input_bytes += bytes.size();
  const uint32_t c_binding = static_cast<uint32_t>(weights.size()) + 1;
  BuildCopies(context, input_bytes, [&](uint32_t) {
    gpu::DispatchBuilder builder(context, pipeline);
    builder.Buffer(0, gpu::Upload(context, a_data, gpu::kUsageStorage, "A"));
    for (uint32_t i = 0; i < weights.size(); ++i) {
      builder.Buffer(i + 1, gpu::Upload(context, weights[i], gpu::kUsageStorage, "weights"));
    }
    gpu::Buffer c = context.CreateBuffer(uint64_t{m} * c_stride_ * sizeof(float),
                                         gpu::kUsageStorage | gpu::kUsageCopySrc, "C");
    builder.Buffer(c_binding, c).Buffer(c_binding + 1, uniform).Groups(groups_x, groups_y);
    return Copy{.dispatches = {builder.Build()}, .kept = {c}};
  });
}

VerificationRecord MatmulBenchmark::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const std::vector<float> c = gpu::Download<float>(context, FirstCopyBuffer(0));
  return CheckMatmulOutput(info().id, c, c_stride_, shape_, a_, w_, options().seed);
}

}  // namespace refract::suites::kernels
