#include "suites/kernels/add_mul_benchmark.h"

#include "gpu/transfer.h"
#include "reference/compare.h"
#include "reference/llm_add_mul.h"
#include "reference/llm_matmul.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_support.h"
#include "suites/kernels/model_shapes.h"

namespace refract::suites::kernels {
namespace {

bench::BenchmarkInfo Info(BinaryKind op, const BinaryShape& shape, Variant variant) {
  return TokenRowInfo(ops::BinaryKindName(op), shape.model, shape.tokens, variant, "elementwise",
                      std::string(variant == Variant::kBaseline ? "seed 003's scalar " : "vec4 ") +
                          (op == BinaryKind::kAdd ? "residual add" : "SwiGLU multiply"),
                      {{"width", shape.width}, {"count", shape.Count()}});
}

std::vector<std::unique_ptr<KernelBenchmark>> Rows(BinaryKind op, const KernelOptions& options) {
  const ModelConfig& qwen = Qwen25();
  const ModelConfig& gemma = EmbeddingGemma2();
  auto width = [op](const ModelConfig& model) {
    return op == BinaryKind::kAdd ? model.hidden : model.intermediate;
  };
  std::vector<BinaryShape> shapes;
  for (uint32_t t : {1u, 50u, 2048u}) shapes.push_back({qwen.name, t, width(qwen)});
  for (uint32_t t : {1u, 128u}) shapes.push_back({gemma.name, t, width(gemma)});
  std::vector<std::unique_ptr<KernelBenchmark>> rows;
  for (const BinaryShape& shape : shapes) {
    for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
      rows.push_back(
          std::make_unique<AddMulBenchmark>(Info(op, shape, variant), variant, op, shape, options));
    }
  }
  return rows;
}

}  // namespace

AddMulBenchmark::AddMulBenchmark(bench::BenchmarkInfo info, Variant variant, BinaryKind op,
                                 BinaryShape shape, KernelOptions options)
    : OpRow(std::move(info), variant, Metric::kBytes,
            {.flops = 0, .bytes = 3.0 * 4.0 * static_cast<double>(shape.Count())},
            std::move(options), {.kind = op, .count = shape.Count()}, ops::kBinaryOps) {}

void AddMulBenchmark::Prepare(gpu::Context& context) {
  const auto record = BuildOp(context);
  const auto count = static_cast<uint32_t>(shape().count);
  a_ = reference::RandomFloats(count, options().seed);
  b_ = reference::RandomFloats(count, options().seed + 1);
  std::vector<float> a = a_, b = b_;
  if (variant() == Variant::kTuned) {  // whole vec4
    a = reference::PadRows(a_, 1, count, reference::RoundUpTo4(count));
    b = reference::PadRows(b_, 1, count, reference::RoundUpTo4(count));
  }
  BuildCopies(context, (a.size() + b.size()) * sizeof(float), [&](uint32_t) {
    gpu::Buffer output = context.CreateBuffer(a.size() * sizeof(float),
                                              gpu::kUsageStorage | gpu::kUsageCopySrc, "output");
    return Copy{.dispatches = record({.a = gpu::Upload(context, a, gpu::kUsageStorage, "a"),
                                      .b = gpu::Upload(context, b, gpu::kUsageStorage, "b"),
                                      .output = output}),
                .kept = {output}};
  });
}

VerificationRecord AddMulBenchmark::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const std::vector<float> gpu = gpu::Download<float>(context, FirstCopyBuffer(0), a_.size());
  const std::vector<float> cpu =
      shape().kind == BinaryKind::kAdd ? reference::Add(a_, b_) : reference::Mul(a_, b_);
  return reference::Compare(info().id, gpu, cpu, reference::kAddMulTolerance);
}

std::vector<std::unique_ptr<KernelBenchmark>> AddBenchmarks(const KernelOptions& options) {
  return Rows(BinaryKind::kAdd, options);
}

std::vector<std::unique_ptr<KernelBenchmark>> MulBenchmarks(const KernelOptions& options) {
  return Rows(BinaryKind::kMul, options);
}

}  // namespace refract::suites::kernels
