#include "suites/kernels/add_mul_benchmark.h"

#include "base/error.h"
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "reference/compare.h"
#include "reference/llm_add_mul.h"
#include "reference/llm_matmul.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_pipeline.h"
#include "suites/kernels/kernel_support.h"
#include "suites/kernels/model_shapes.h"

namespace refract::suites::kernels {
namespace {

const char* OpName(BinaryOp op) { return op == BinaryOp::kAdd ? "add" : "mul"; }

bench::BenchmarkInfo Info(BinaryOp op, const BinaryShape& shape, Variant variant) {
  return TokenRowInfo(OpName(op), shape.model, shape.tokens, variant, "elementwise",
                      std::string(variant == Variant::kBaseline ? "seed 003's scalar " : "vec4 ") +
                          (op == BinaryOp::kAdd ? "residual add" : "SwiGLU multiply"),
                      {{"width", shape.width}, {"count", shape.Count()}});
}

std::vector<std::unique_ptr<KernelBenchmark>> Rows(BinaryOp op, const KernelOptions& options) {
  const ModelConfig& qwen = Qwen25();
  const ModelConfig& gemma = EmbeddingGemma2();
  auto width = [op](const ModelConfig& model) {
    return op == BinaryOp::kAdd ? model.hidden : model.intermediate;
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

AddMulBenchmark::AddMulBenchmark(bench::BenchmarkInfo info, Variant variant, BinaryOp op,
                                 BinaryShape shape, KernelOptions options)
    : KernelBenchmark(std::move(info), variant, Metric::kBytes,
                      {.flops = 0, .bytes = 3.0 * 4.0 * static_cast<double>(shape.Count())},
                      (shape.Count() + 3) / 4 * 16, std::move(options)),
      op_(op),
      shape_(std::move(shape)) {
  REFRACT_THROW_IF(shape_.Count() > UINT32_MAX, UsageError,
                   "add and mul need at most 2^32 - 1 elements");
  RequireKnownOverrides(this->options().overrides, {"WG", "VPT"}, "add and mul");
  workgroup_ = OverrideOr(this->options().overrides, "WG", 256);
  vec4_per_thread_ = OverrideOr(this->options().overrides, "VPT", 1);
}

void AddMulBenchmark::Prepare(gpu::Context& context) {
  RequireRunnable(context);
  Release();
  const auto count = static_cast<uint32_t>(shape_.Count());
  a_ = reference::RandomFloats(count, options().seed);
  b_ = reference::RandomFloats(count, options().seed + 1);
  std::vector<float> a = a_, b = b_;
  gpu::ComputePipeline pipeline;
  uint32_t groups = 0;
  if (variant() == Variant::kBaseline) {
    pipeline = CompileKernel(context, {"llm_add_mul_baseline"}, info().id, OpName(op_));
    groups = gpu::GroupsFor(count, 256);
  } else {
    a = reference::PadRows(a_, 1, count, reference::RoundUpTo4(count));
    b = reference::PadRows(b_, 1, count, reference::RoundUpTo4(count));
    pipeline = CompileKernel(context, {"llm_add_mul_tuned"}, info().id, OpName(op_),
                             {{"WG", workgroup_}, {"VPT", vec4_per_thread_}});
    groups = gpu::GroupsFor((count + 3) / 4, workgroup_ * vec4_per_thread_);
    SetParam("wg", workgroup_);
    SetParam("vpt", vec4_per_thread_);
  }
  gpu::Buffer params = gpu::Uniform(context, CountParams{count, {}});
  BuildCopies(context, (a.size() + b.size()) * sizeof(float), [&](uint32_t) {
    gpu::Buffer output = context.CreateBuffer(a.size() * sizeof(float),
                                              gpu::kUsageStorage | gpu::kUsageCopySrc, "output");
    return Copy{.dispatches = {gpu::DispatchBuilder(context, pipeline)
                                   .Buffer(0, gpu::Upload(context, a, gpu::kUsageStorage, "a"))
                                   .Buffer(1, gpu::Upload(context, b, gpu::kUsageStorage, "b"))
                                   .Buffer(2, output)
                                   .Buffer(3, params)
                                   .Groups(groups)
                                   .Build()},
                .kept = {output}};
  });
}

VerificationRecord AddMulBenchmark::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const std::vector<float> gpu = gpu::Download<float>(context, FirstCopyBuffer(0), a_.size());
  const std::vector<float> cpu =
      op_ == BinaryOp::kAdd ? reference::Add(a_, b_) : reference::Mul(a_, b_);
  return reference::Compare(info().id, gpu, cpu, reference::kAddMulTolerance);
}

std::vector<std::unique_ptr<KernelBenchmark>> AddBenchmarks(const KernelOptions& options) {
  return Rows(BinaryOp::kAdd, options);
}

std::vector<std::unique_ptr<KernelBenchmark>> MulBenchmarks(const KernelOptions& options) {
  return Rows(BinaryOp::kMul, options);
}

}  // namespace refract::suites::kernels
