#include "suites/kernels/matmul_benchmark.h"

#include <functional>
#include <memory>

#include "base/error.h"
#include "gpu/transfer.h"
#include "reference/llm_matmul.h"

namespace refract::suites::kernels {
namespace {

using reference::RoundUpTo4;
using Recorder = std::function<std::vector<gpu::Dispatch>(const ops::MatmulBuffers&)>;

/// Compiles `kind`'s op at `config` and returns how a copy's buffers are recorded with it; its
/// configuration's axes into `axes`.
template <typename Config>
Recorder Compiled(gpu::Context& context,
                  const ops::OpKind<ops::MatmulShape, Config, ops::MatmulBuffers>& kind,
                  const ops::MatmulShape& problem, const Config& config, const std::string& label,
                  ops::Settings& axes) {
  auto op = std::make_shared<ops::Op<ops::MatmulShape, Config, ops::MatmulBuffers>>(
      kind, context, problem, config, label);
  axes = kind.rules.axes().ValuesOf(config);
  return [op, &context](const ops::MatmulBuffers& b) { return op->Record(context, b); };
}

}  // namespace

MatmulBenchmark::MatmulBenchmark(bench::BenchmarkInfo info, Variant variant, MatmulShape shape,
                                 KernelCost cost, KernelOptions options, ops::Weights weights)
    : KernelBenchmark(std::move(info), variant, Metric::kFlops, cost, std::move(options)),
      shape_(std::move(shape)),
      weights_(weights) {}

MatmulBenchmark::Path MatmulBenchmark::path() const {
  if (variant() == Variant::kBaseline) return Path::kBaseline;
  if (variant() == Variant::kTunedQ8) return Path::kGemvQ8;
  return shape_.m == 1 ? Path::kGemv : Path::kGemm;
}

ops::Refusal MatmulBenchmark::CheckOn(const DeviceLimits& limits) const {
  if (path() == Path::kBaseline) return ops::kSeedMatmulRules.Check({}, OpShape(), limits);
  // A kernel's settings may name any tuned op's axes: each row takes its own op's.
  if (auto unknown =
          UnknownSettings({&ops::kGemvRules.axes().axes(), &ops::kGemvQ8Rules.axes().axes(),
                           &ops::kGemmRules.axes().axes()})) {
    return unknown;
  }
  const ops::Settings& settings = options().settings;
  if (path() == Path::kGemm) {
    return ops::kGemmRules.Check(ops::kGemmRules.Resolve(OpShape(), limits, settings), OpShape(),
                                 limits);
  }
  const ops::OpRules<ops::MatmulShape, ops::GemvConfig>& gemv =
      path() == Path::kGemvQ8 ? ops::kGemvQ8Rules : ops::kGemvRules;
  return gemv.Check(gemv.Resolve(OpShape(), limits, settings), OpShape(), limits);
}

std::vector<ops::Axis> MatmulBenchmark::OpAxes() const {
  switch (path()) {
    case Path::kBaseline:
      return {};
    case Path::kGemm:
      return ops::kGemmRules.axes().axes();
    case Path::kGemvQ8:
      return ops::kGemvQ8Rules.axes().axes();
    case Path::kGemv:
      return ops::kGemvRules.axes().axes();
  }
  return {};
}

void MatmulBenchmark::Build(gpu::Context& context, std::shared_ptr<const MatmulInputs> inputs,
                            const std::vector<std::span<const std::byte>>& weights) {
  RequireRunnable(context);
  const uint32_t m = shape_.m, k = shape_.k, n = shape_.n;
  inputs_ = std::move(inputs);
  const std::vector<float>& a = inputs_->a();
  const DeviceLimits& limits = context.limits();
  const ops::Settings& settings = options().settings;
  std::vector<float> a_data = a;
  ops::Settings axes;
  Recorder record;
  c_stride_ = n;
  switch (path()) {
    case Path::kBaseline:
      record = Compiled(context, ops::kSeedMatmul, OpShape(), ops::NoConfig{}, info().id, axes);
      break;
    case Path::kGemm: {
      a_data = reference::PadRows(a, m, k, RoundUpTo4(k));
      c_stride_ = ops::GemmCStride(shape_.Dims());
      const ops::GemmConfig config = ops::kGemmRules.Resolve(OpShape(), limits, settings);
      record = Compiled(context, ops::kGemm, OpShape(), config, info().id, axes);
      SetParam("path", "gemm");
      SetParam("workgroup_bytes", static_cast<int64_t>(config.TileBytes()));
      break;
    }
    case Path::kGemvQ8:
      throw Error(info().id + ": the q8 GEMV's row builds its own copies");
    case Path::kGemv:
      a_data = reference::PadRows(a, 1, k, RoundUpTo4(k));
      record = Compiled(context, ops::kGemv, OpShape(),
                        ops::kGemvRules.Resolve(OpShape(), limits, settings), info().id, axes);
      SetParam("path", "gemv");
      break;
  }
  SetAxes(axes);

  uint64_t input_bytes = a_data.size() * sizeof(float);
  for (std::span<const std::byte> bytes : weights) input_bytes += bytes.size();
  BuildCopies(context, input_bytes, [&](uint32_t) {
    std::vector<gpu::BufferSlice> w_buffers(3);  // B or W, scales, the seed's zeros
    for (size_t i = 0; i < weights.size() && i < w_buffers.size(); ++i) {
      w_buffers[i] = gpu::Upload(context, weights[i], gpu::kUsageStorage, "weights");
    }
    gpu::Buffer c = context.CreateBuffer(uint64_t{m} * c_stride_ * sizeof(float),
                                         gpu::kUsageStorage | gpu::kUsageCopySrc, "C");
    return Copy{.dispatches = record({.a = gpu::Upload(context, a_data, gpu::kUsageStorage, "A"),
                                      .w = w_buffers[0],
                                      .scales = w_buffers[1],
                                      .zeros = w_buffers[2],
                                      .c = c}),
                .kept = {c}};
  });
}

VerificationRecord MatmulBenchmark::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const std::vector<float> c = gpu::Download<float>(context, FirstCopyBuffer(0));
  REFRACT_THROW_IF(!inputs_, Error, info().id + ": Verify before Prepare");
  return CheckMatmulOutput(info().id, c, c_stride_, shape_, *inputs_, options().seed);
}

}  // namespace refract::suites::kernels
