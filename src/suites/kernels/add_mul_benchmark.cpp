#include "suites/kernels/add_mul_benchmark.h"

#include "base/error.h"
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "reference/compare.h"
#include "reference/llm_add_mul.h"
#include "reference/llm_matmul.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_pipeline.h"
#include "suites/kernels/model_shapes.h"

namespace refract::suites::kernels {
namespace {

/// Seed 003's element-wise uniform {count}, padded to 16 bytes.
struct CountParams {
  uint32_t count, padding[3];
};

const char* OpName(BinaryOp op) { return op == BinaryOp::kAdd ? "add" : "mul"; }

bench::BenchmarkInfo Info(BinaryOp op, const BinaryShape& shape, Variant variant) {
  bench::BenchmarkInfo info;
  info.id = std::string(OpName(op)) + "/" + shape.model + "/t" + std::to_string(shape.tokens) +
            "/" + std::string(VariantName(variant));
  info.category = "elementwise";
  info.description = std::string(variant == Variant::kBaseline ? "seed 003's scalar " : "vec4 ") +
                     (op == BinaryOp::kAdd ? "residual add" : "SwiGLU multiply");
  info.params = {{"model", shape.model},
                 {"t", shape.tokens},
                 {"width", shape.width},
                 {"count", shape.Count()}};
  return info;
}

std::vector<std::unique_ptr<KernelBenchmark>> Rows(BinaryOp op, const BinaryOptions& options) {
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
                                 BinaryShape shape, BinaryOptions options)
    : KernelBenchmark(std::move(info), variant, Metric::kBytes),
      op_(op),
      shape_(std::move(shape)),
      options_(options) {}

std::optional<std::string> AddMulBenchmark::MissingRequirement(const gpu::Context& context) const {
  const uint64_t bytes = (shape_.Count() + 3) / 4 * 16;
  if (bytes > context.limits().max_storage_buffer_binding_size || shape_.Count() > UINT32_MAX) {
    return "needs " + std::to_string(bytes) + "-byte storage bindings; the device binds at most " +
           std::to_string(context.limits().max_storage_buffer_binding_size);
  }
  return std::nullopt;
}

void AddMulBenchmark::Prepare(gpu::Context& context) {
  if (auto problem = MissingRequirement(context)) throw UsageError(info().id + ": " + *problem);
  Release();
  const auto count = static_cast<uint32_t>(shape_.Count());
  a_ = reference::RandomFloats(count, options_.seed);
  b_ = reference::RandomFloats(count, options_.seed + 1);
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
                             {{"WG", options_.workgroup}, {"VPT", options_.vec4_per_thread}});
    groups = gpu::GroupsFor((count + 3) / 4, options_.workgroup * options_.vec4_per_thread);
    SetParam("wg", options_.workgroup);
    SetParam("vpt", options_.vec4_per_thread);
  }
  const uint64_t read_bytes = (a.size() + b.size()) * sizeof(float);
  const uint64_t footprint = options_.cold_footprint_bytes != 0
                                 ? options_.cold_footprint_bytes
                                 : DefaultColdFootprintBytes(context);
  const uint32_t copies = ColdCopies(read_bytes, footprint);
  gpu::Buffer params = gpu::Uniform(context, CountParams{count, {}});
  for (uint32_t copy = 0; copy < copies; ++copy) {
    gpu::Buffer output = context.CreateBuffer(a.size() * sizeof(float),
                                              gpu::kUsageStorage | gpu::kUsageCopySrc, "output");
    dispatches_.push_back(gpu::DispatchBuilder(context, pipeline)
                              .Buffer(0, gpu::Upload(context, a, gpu::kUsageStorage, "a"))
                              .Buffer(1, gpu::Upload(context, b, gpu::kUsageStorage, "b"))
                              .Buffer(2, output)
                              .Buffer(3, params)
                              .Groups(groups)
                              .Build());
    outputs_.push_back(output);
  }
  SetRotation(copies, copies * read_bytes >= footprint);
}

VerificationRecord AddMulBenchmark::Verify(gpu::Context& context) {
  REFRACT_THROW_IF(dispatches_.empty(), Error, info().id + ": Verify before Prepare");
  context.RunPass(dispatches_.front(), 1, false);
  const std::vector<float> gpu = gpu::Download<float>(context, outputs_.front(), a_.size());
  const std::vector<float> cpu =
      op_ == BinaryOp::kAdd ? reference::Add(a_, b_) : reference::Mul(a_, b_);
  return reference::Compare(info().id, gpu, cpu, reference::kAddMulTolerance);
}

void AddMulBenchmark::Release() {
  dispatches_.clear();
  outputs_.clear();
  a_ = {};
  b_ = {};
}

KernelCost AddMulBenchmark::Cost() const {
  return {.flops = 0, .bytes = 3.0 * 4.0 * static_cast<double>(shape_.Count())};
}

std::vector<std::unique_ptr<KernelBenchmark>> AddBenchmarks(const BinaryOptions& options) {
  return Rows(BinaryOp::kAdd, options);
}

std::vector<std::unique_ptr<KernelBenchmark>> MulBenchmarks(const BinaryOptions& options) {
  return Rows(BinaryOp::kMul, options);
}

}  // namespace refract::suites::kernels
