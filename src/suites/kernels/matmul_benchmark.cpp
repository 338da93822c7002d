#include "suites/kernels/matmul_benchmark.h"

#include <optional>

#include "gpu/transfer.h"
#include "ops/seed_matmul_op.h"
#include "reference/llm_matmul.h"

namespace refract::suites::kernels {

using reference::RoundUpTo4;

MatmulBenchmark::MatmulBenchmark(bench::BenchmarkInfo info, Variant variant, MatmulShape shape,
                                 KernelCost cost, KernelOptions options, ops::Weights weights)
    : KernelBenchmark(std::move(info), variant, Metric::kFlops, cost, std::move(options)),
      shape_(std::move(shape)),
      weights_(weights) {}

MatmulBenchmark::Path MatmulBenchmark::path() const {
  if (variant() == Variant::kBaseline) return Path::kBaseline;
  return shape_.m == 1 ? Path::kGemv : Path::kGemm;
}

ops::GemmConfig MatmulBenchmark::Gemm(const DeviceLimits& limits) const {
  return ops::GemmOp::Resolve(weights_, shape_.Dims(), limits, options().settings);
}

ops::GemvConfig MatmulBenchmark::Gemv(const DeviceLimits& limits) const {
  return ops::GemvOp::Resolve(weights_, shape_.Dims(), limits, options().settings);
}

ops::Problem MatmulBenchmark::CheckOn(const DeviceLimits& limits) const {
  if (path() != Path::kBaseline) {
    if (auto unknown = UnknownSettings({&ops::GemvOp::Axes().axes(), &ops::GemmOp::Axes().axes()})) {
      return unknown;
    }
  }
  switch (path()) {
    case Path::kBaseline:
      return ops::SeedMatmulOp::Check(weights_, shape_.Dims(), limits);
    case Path::kGemm:
      return ops::GemmOp::Check(weights_, Gemm(limits), shape_.Dims(), limits);
    case Path::kGemv:
      return ops::GemvOp::Check(weights_, Gemv(limits), shape_.Dims(), limits);
  }
  return std::nullopt;
}

void MatmulBenchmark::Build(gpu::Context& context, std::vector<float> a, std::vector<float> w,
                            const std::vector<std::span<const std::byte>>& weights) {
  const uint32_t m = shape_.m, k = shape_.k, n = shape_.n;
  a_ = std::move(a);
  w_ = std::move(w);
  std::vector<float> a_data;
  std::optional<ops::SeedMatmulOp> seed;
  std::optional<ops::GemmOp> gemm;
  std::optional<ops::GemvOp> gemv;
  switch (path()) {
    case Path::kBaseline:
      a_data = a_;
      c_stride_ = n;
      seed.emplace(context, weights_, shape_.Dims(), info().id);
      break;
    case Path::kGemm:
      a_data = reference::PadRows(a_, m, k, RoundUpTo4(k));
      gemm.emplace(context, weights_, shape_.Dims(), Gemm(context.limits()), info().id);
      c_stride_ = gemm->CStride();
      SetParam("path", "gemm");
      SetAxes(ops::GemmOp::Axes().ValuesOf(gemm->config()));
      break;
    case Path::kGemv:
      a_data = reference::PadRows(a_, 1, k, RoundUpTo4(k));
      c_stride_ = n;
      gemv.emplace(context, weights_, shape_.Dims(), Gemv(context.limits()), info().id);
      SetParam("path", "gemv");
      SetAxes(ops::GemvOp::Axes().ValuesOf(gemv->config()));
      break;
  }

  uint64_t input_bytes = a_data.size() * sizeof(float);
  for (std::span<const std::byte> bytes : weights) input_bytes += bytes.size();
  BuildCopies(context, input_bytes, [&](uint32_t) {
    std::vector<gpu::BufferSlice> w_buffers(3);
    for (size_t i = 0; i < weights.size() && i < w_buffers.size(); ++i) {
      w_buffers[i] = gpu::Upload(context, weights[i], gpu::kUsageStorage, "weights");
    }
    const gpu::Buffer a_buffer = gpu::Upload(context, a_data, gpu::kUsageStorage, "A");
    gpu::Buffer c = context.CreateBuffer(uint64_t{m} * c_stride_ * sizeof(float),
                                         gpu::kUsageStorage | gpu::kUsageCopySrc, "C");
    std::vector<gpu::Dispatch> dispatches;
    if (seed) {
      dispatches = seed->Record(context, {.a = a_buffer,
                                          .b = w_buffers[0],
                                          .scales = w_buffers[1],
                                          .zeros = w_buffers[2],
                                          .c = c});
    } else if (gemm) {
      dispatches = gemm->Record(
          context, {.a = a_buffer, .w = w_buffers[0], .scales = w_buffers[1], .c = c});
    } else {
      dispatches = gemv->Record(
          context, {.x = a_buffer, .w = w_buffers[0], .scales = w_buffers[1], .y = c});
    }
    return Copy{.dispatches = std::move(dispatches), .kept = {c}};
  });
}

VerificationRecord MatmulBenchmark::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const std::vector<float> c = gpu::Download<float>(context, FirstCopyBuffer(0));
  return CheckMatmulOutput(info().id, c, c_stride_, shape_, a_, w_, options().seed);
}

}  // namespace refract::suites::kernels
