#include "suites/kernels/embedding_benchmark.h"

#include <algorithm>
#include <optional>

#include "gpu/transfer.h"
#include "reference/compare.h"
#include "reference/llm_embedding.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_support.h"
#include "suites/kernels/model_shapes.h"

namespace refract::suites::kernels {
namespace {

bench::BenchmarkInfo Info(const EmbeddingRowShape& shape, Variant variant) {
  return TokenRowInfo("embedding", shape.model, shape.tokens, variant, "embedding",
                      variant == Variant::kBaseline ? "seed 003's flat gather, one element a thread"
                                                    : "vec4 gather, one 16-byte row slice a thread",
                      {{"hidden", shape.hidden}});
}

KernelCost EmbeddingCost(const EmbeddingRowShape& shape) {
  const double t = shape.tokens, hidden = shape.hidden;
  return {.flops = 0, .bytes = 4 * t + 2 * 4 * t * hidden};
}

}  // namespace

EmbeddingBenchmark::EmbeddingBenchmark(bench::BenchmarkInfo info, Variant variant,
                                       EmbeddingRowShape shape, KernelOptions options,
                                       uint64_t max_table_bytes)
    : KernelBenchmark(std::move(info), variant, Metric::kBytes, EmbeddingCost(shape),
                      std::move(options)),
      shape_(std::move(shape)),
      max_table_bytes_(max_table_bytes) {}

ops::EmbeddingShape EmbeddingBenchmark::OpShape(const DeviceLimits& limits) const {
  uint64_t limit = limits.LargestStorageBinding();
  if (max_table_bytes_ != 0) limit = std::min(limit, max_table_bytes_);
  const uint64_t row_bytes = uint64_t{std::max(shape_.hidden, 1u)} * sizeof(float);
  return {.tokens = shape_.tokens,
          .hidden = shape_.hidden,
          .vocab = static_cast<uint32_t>(std::min<uint64_t>(shape_.vocab, limit / row_bytes))};
}

ops::Problem EmbeddingBenchmark::CheckOn(const DeviceLimits& limits) const {
  const ops::EmbeddingShape shape = OpShape(limits);
  if (shape.vocab == 0 && shape_.vocab > 0) {
    return "one table row of " + std::to_string(shape_.hidden) +
           " floats exceeds the device's largest storage binding";
  }
  if (variant() == Variant::kBaseline) return ops::EmbeddingBaselineOp::Check(shape, limits);
  if (auto unknown = UnknownSettings({&ops::EmbeddingTunedOp::Axes().axes()})) return unknown;
  const ops::EmbeddingConfig config =
      ops::EmbeddingTunedOp::Resolve(shape, limits, options().settings);
  return ops::EmbeddingTunedOp::Check(config, shape, limits);
}

void EmbeddingBenchmark::Prepare(gpu::Context& context) {
  RequireRunnable(context);
  Release();
  const ops::EmbeddingShape shape = OpShape(context.limits());
  const uint32_t t = shape.tokens, hidden = shape.hidden, vocab = shape.vocab;
  SetParam("vocab", vocab);
  table_ = reference::RandomFloats(size_t{vocab} * hidden, options().seed);
  std::optional<ops::EmbeddingBaselineOp> baseline;
  std::optional<ops::EmbeddingTunedOp> tuned;
  if (variant() == Variant::kBaseline) {
    baseline.emplace(context, shape, info().id);
  } else {
    tuned.emplace(context, shape,
                  ops::EmbeddingTunedOp::Resolve(shape, context.limits(), options().settings),
                  info().id);
    SetParam("path", ops::EmbeddingTunedOp::PathOf(shape));
    SetAxes(ops::EmbeddingTunedOp::Axes().ValuesOf(tuned->config()));
  }
  gpu::Buffer table = gpu::Upload(context, table_, gpu::kUsageStorage, "table");
  BuildCopies(context, uint64_t{t} * (hidden + 1) * sizeof(float), [&](uint32_t copy) {
    std::vector<uint32_t> ids = reference::RandomIndices(t, options().seed + 1 + copy, vocab);
    gpu::Buffer output = context.CreateBuffer(uint64_t{t} * hidden * sizeof(float),
                                              gpu::kUsageStorage | gpu::kUsageCopySrc, "output");
    const ops::EmbeddingBuffers b{.ids = gpu::Upload(context, ids, gpu::kUsageStorage, "ids"),
                                  .table = table,
                                  .output = output};
    if (copy == 0) ids_ = std::move(ids);
    return Copy{.dispatches = baseline ? baseline->Record(context, b) : tuned->Record(context, b),
                .kept = {output}};
  });
}

VerificationRecord EmbeddingBenchmark::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const std::vector<float> gpu = gpu::Download<float>(context, FirstCopyBuffer(0));
  const std::vector<float> cpu = reference::Embedding(ids_, table_, shape_.hidden);
  const uint32_t hidden = shape_.hidden;
  return reference::Compare(info().id, gpu, cpu, reference::kEmbeddingTolerance,
                            [hidden](size_t index) {
                              return "token " + std::to_string(index / hidden) + ", dim " +
                                     std::to_string(index % hidden);
                            });
}

std::vector<std::unique_ptr<KernelBenchmark>> EmbeddingBenchmarks(const KernelOptions& options) {
  std::vector<EmbeddingRowShape> shapes;
  const ModelConfig& qwen = Qwen25();
  const ModelConfig& gemma = EmbeddingGemma2();
  for (uint32_t t : {1u, 50u, 2048u}) shapes.push_back({qwen.name, t, qwen.hidden, qwen.vocab});
  for (uint32_t t : {1u, 128u}) shapes.push_back({gemma.name, t, gemma.hidden, gemma.vocab});
  std::vector<std::unique_ptr<KernelBenchmark>> rows;
  for (const EmbeddingRowShape& shape : shapes) {
    for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
      rows.push_back(
          std::make_unique<EmbeddingBenchmark>(Info(shape, variant), variant, shape, options));
    }
  }
  return rows;
}

}  // namespace refract::suites::kernels
