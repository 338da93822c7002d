#include "suites/kernels/embedding_benchmark.h"

#include <algorithm>

#include "base/error.h"
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "reference/compare.h"
#include "reference/llm_embedding.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_pipeline.h"
#include "suites/kernels/kernel_support.h"
#include "suites/kernels/model_shapes.h"

namespace refract::suites::kernels {
namespace {

/// Seed 003's embedding uniform {seq_len, hidden_size}, padded to 16 bytes.
struct EmbeddingParams {
  uint32_t seq_len, hidden_size, padding[2];
};

bench::BenchmarkInfo Info(const EmbeddingShape& shape, Variant variant) {
  return TokenRowInfo("embedding", shape.model, shape.tokens, variant, "embedding",
                      variant == Variant::kBaseline ? "seed 003's flat gather, one element a thread"
                                                    : "vec4 gather, one 16-byte row slice a thread",
                      {{"hidden", shape.hidden}});
}

KernelCost EmbeddingCost(const EmbeddingShape& shape) {
  const double t = shape.tokens, hidden = shape.hidden;
  return {.flops = 0, .bytes = 4 * t + 2 * 4 * t * hidden};
}

}  // namespace

EmbeddingBenchmark::EmbeddingBenchmark(bench::BenchmarkInfo info, Variant variant,
                                       EmbeddingShape shape, KernelOptions options,
                                       uint64_t max_table_bytes)
    : KernelBenchmark(std::move(info), variant, Metric::kBytes, EmbeddingCost(shape),
                      uint64_t{shape.tokens} * shape.hidden * sizeof(float), std::move(options)),
      shape_(std::move(shape)),
      max_table_bytes_(max_table_bytes) {
  RequireKnownOverrides(this->options().overrides, {"WG"}, "embedding");
  workgroup_ = OverrideOr(this->options().overrides, "WG", 256);
}

uint32_t EmbeddingBenchmark::UsableVocab(const gpu::Context& context) const {
  const gpu::DeviceLimits& limits = context.limits();
  uint64_t limit = std::min(limits.max_storage_buffer_binding_size, limits.max_buffer_size);
  if (max_table_bytes_ != 0) limit = std::min(limit, max_table_bytes_);
  return static_cast<uint32_t>(
      std::min<uint64_t>(shape_.vocab, limit / (uint64_t{shape_.hidden} * sizeof(float))));
}

std::optional<std::string> EmbeddingBenchmark::MissingRequirement(
    const gpu::Context& context) const {
  const uint64_t output_bytes = largest_binding_bytes();
  if (UsableVocab(context) == 0 ||
      output_bytes > context.limits().max_storage_buffer_binding_size) {
    return "needs a storage binding of " + std::to_string(output_bytes) +
           " bytes and of one table row; the device binds at most " +
           std::to_string(context.limits().max_storage_buffer_binding_size);
  }
  return std::nullopt;
}

void EmbeddingBenchmark::Prepare(gpu::Context& context) {
  RequireRunnable(context);
  Release();
  const uint32_t vocab = UsableVocab(context);
  const uint32_t t = shape_.tokens, hidden = shape_.hidden;
  SetParam("vocab", vocab);
  table_ = reference::RandomFloats(size_t{vocab} * hidden, options().seed);

  gpu::ComputePipeline pipeline;
  uint32_t groups = 0;
  if (variant() == Variant::kBaseline) {
    pipeline = CompileKernel(context, {"llm_embedding_baseline"}, info().id);
    groups = gpu::GroupsFor(uint64_t{t} * hidden, 256);
  } else {
    const bool vec4 = hidden % 4 == 0;
    SetParam("path", vec4 ? "vec4" : "scalar");
    SetParam("wg", workgroup_);
    pipeline = CompileKernel(context, {"llm_embedding_tuned"}, info().id,
                             vec4 ? "main_vec4" : "main_scalar", {{"WG", workgroup_}});
    groups = gpu::GroupsFor((uint64_t{t} * hidden + 3) / 4, workgroup_);
  }

  gpu::Buffer table = gpu::Upload(context, table_, gpu::kUsageStorage, "table");
  gpu::Buffer params = gpu::Uniform(context, EmbeddingParams{t, hidden, {}});
  BuildCopies(context, uint64_t{t} * (hidden + 1) * sizeof(float), [&](uint32_t copy) {
    std::vector<uint32_t> ids = reference::RandomIndices(t, options().seed + 1 + copy, vocab);
    gpu::Buffer output = context.CreateBuffer(uint64_t{t} * hidden * sizeof(float),
                                              gpu::kUsageStorage | gpu::kUsageCopySrc, "output");
    gpu::Dispatch dispatch = gpu::DispatchBuilder(context, pipeline)
                                 .Buffer(0, gpu::Upload(context, ids, gpu::kUsageStorage, "ids"))
                                 .Buffer(1, table)
                                 .Buffer(2, output)
                                 .Buffer(3, params)
                                 .Groups(groups)
                                 .Build();
    if (copy == 0) ids_ = std::move(ids);
    return Copy{.dispatches = {dispatch}, .kept = {output}};
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
  std::vector<EmbeddingShape> shapes;
  const ModelConfig& qwen = Qwen25();
  const ModelConfig& gemma = EmbeddingGemma2();
  for (uint32_t t : {1u, 50u, 2048u}) shapes.push_back({qwen.name, t, qwen.hidden, qwen.vocab});
  for (uint32_t t : {1u, 128u}) shapes.push_back({gemma.name, t, gemma.hidden, gemma.vocab});
  std::vector<std::unique_ptr<KernelBenchmark>> rows;
  for (const EmbeddingShape& shape : shapes) {
    for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
      rows.push_back(
          std::make_unique<EmbeddingBenchmark>(Info(shape, variant), variant, shape, options));
    }
  }
  return rows;
}

}  // namespace refract::suites::kernels
