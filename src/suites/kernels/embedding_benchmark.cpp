#include "suites/kernels/embedding_benchmark.h"

#include <algorithm>

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
    : OpRow(std::move(info), variant, Metric::kBytes, EmbeddingCost(shape), std::move(options),
            {.tokens = shape.tokens, .hidden = shape.hidden, .vocab = shape.vocab},
            ops::kEmbeddingOps),
      max_table_bytes_(max_table_bytes) {}

ops::EmbeddingShape EmbeddingBenchmark::ShapeOn(const DeviceLimits& limits) const {
  uint64_t limit = limits.LargestStorageBinding();
  if (max_table_bytes_ != 0) limit = std::min(limit, max_table_bytes_);
  ops::EmbeddingShape capped = shape();
  const uint64_t row_bytes = uint64_t{std::max(capped.hidden, 1u)} * sizeof(float);
  capped.vocab = static_cast<uint32_t>(std::min<uint64_t>(capped.vocab, limit / row_bytes));
  return capped;
}

ops::Refusal EmbeddingBenchmark::CheckOn(const DeviceLimits& limits) const {
  if (ShapeOn(limits).vocab == 0 && shape().vocab > 0) {
    return "one table row of " + std::to_string(shape().hidden) +
           " floats exceeds the device's largest storage binding";
  }
  return OpRow::CheckOn(limits);
}

void EmbeddingBenchmark::Prepare(gpu::Context& context) {
  const auto record = BuildOp(context);
  const ops::EmbeddingShape s = ShapeOn(context.limits());
  const uint32_t t = s.tokens, hidden = s.hidden, vocab = s.vocab;
  SetParam("vocab", vocab);
  if (variant() == Variant::kTuned) SetParam("path", ops::EmbeddingPath(s));
  table_ = reference::RandomFloats(size_t{vocab} * hidden, options().seed);
  gpu::Buffer table = gpu::Upload(context, table_, gpu::kUsageStorage, "table");
  BuildCopies(context, uint64_t{t} * (hidden + 1) * sizeof(float), [&](uint32_t copy) {
    std::vector<uint32_t> ids = reference::RandomIndices(t, options().seed + 1 + copy, vocab);
    gpu::Buffer output = context.CreateBuffer(uint64_t{t} * hidden * sizeof(float),
                                              gpu::kUsageStorage | gpu::kUsageCopySrc, "output");
    const ops::EmbeddingBuffers b{.ids = gpu::Upload(context, ids, gpu::kUsageStorage, "ids"),
                                  .table = table,
                                  .output = output};
    if (copy == 0) ids_ = std::move(ids);
    return Copy{.dispatches = record(b), .kept = {output}};
  });
}

VerificationRecord EmbeddingBenchmark::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const std::vector<float> gpu = gpu::Download<float>(context, FirstCopyBuffer(0));
  const std::vector<float> cpu = reference::Embedding(ids_, table_, shape().hidden);
  const uint32_t hidden = shape().hidden;
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
