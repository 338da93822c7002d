#include "suites/kernels/softmax_benchmark.h"

#include "gpu/transfer.h"
#include "reference/compare.h"
#include "reference/llm_softmax.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_support.h"
#include "suites/kernels/model_shapes.h"

namespace refract::suites::kernels {
namespace {

constexpr uint64_t kFullCheckValues = uint64_t{1} << 22;
constexpr uint32_t kSampledRows = 256;

KernelCost SoftmaxCost(const SoftmaxShape& shape) {
  const double values = static_cast<double>(shape.rows) * shape.row_size;
  return {.flops = 5 * values, .bytes = 8 * values};
}

}  // namespace

std::vector<float> MakeSoftmaxInput(const SoftmaxShape& shape, uint64_t seed) {
  std::vector<float> x =
      reference::RandomFloats(size_t{shape.rows} * shape.row_size, seed, -8.0f, 8.0f);
  for (uint32_t r = 0; r < shape.rows; ++r) {
    float* row = x.data() + size_t{r} * shape.row_size;
    if (r % 4 == 1) {
      for (uint32_t i = 0; i < shape.row_size; ++i) row[i] += 90.0f;
    } else if (r % 4 == 3) {
      row[(r * 7919u) % shape.row_size] = 97.0f;
    }
  }
  return x;
}

SoftmaxBenchmark::SoftmaxBenchmark(bench::BenchmarkInfo info, Variant variant, SoftmaxShape shape,
                                   KernelOptions options)
    : OpRow(std::move(info), variant, Metric::kBytes, SoftmaxCost(shape), std::move(options), shape,
            ops::kSoftmaxOps) {}

void SoftmaxBenchmark::Prepare(gpu::Context& context) {
  const auto record = BuildOp(context);
  input_ = MakeSoftmaxInput(shape(), options().seed);
  if (variant() == Variant::kTuned) SetParam("vec", ops::RowWidth(shape().row_size));
  BuildCopies(context, 4 * input_.size(), [&](uint32_t) {
    const gpu::Buffer output = StorageOf(context, input_.size(), "softmax output");
    return Copy{.dispatches = record(
                    {.input = StorageWith(context, input_, "softmax input"), .output = output}),
                .kept = {output}};
  });
}

VerificationRecord SoftmaxBenchmark::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const std::vector<float> gpu = gpu::Download<float>(context, FirstCopyBuffer(0), input_.size());
  const uint32_t n = shape().row_size;
  auto namer = [n](size_t index) {
    return "row " + std::to_string(index / n) + ", col " + std::to_string(index % n);
  };
  if (input_.size() <= kFullCheckValues) {
    const std::vector<float> cpu = reference::Softmax(input_, shape().rows, n);
    return reference::Compare(info().id, gpu, cpu, reference::SoftmaxTolerance(cpu), namer);
  }
  const std::vector<uint32_t> rows = SampleIndices(shape().rows, kSampledRows, options().seed);
  std::vector<float> sampled_input;
  for (uint32_t r : rows) {
    sampled_input.insert(sampled_input.end(), input_.begin() + size_t{r} * n,
                         input_.begin() + size_t{r + 1} * n);
  }
  const std::vector<float> cpu =
      reference::Softmax(sampled_input, static_cast<uint32_t>(rows.size()), n);
  reference::Comparison comparison(info().id, reference::SoftmaxTolerance(cpu), namer);
  return CompareRows(comparison, gpu, cpu, rows, n);
}

std::vector<std::unique_ptr<KernelBenchmark>> SoftmaxBenchmarks(const KernelOptions& options) {
  struct Case {
    const ModelConfig* model;
    std::string phase;
    uint32_t t, s;
  };
  const ModelConfig& qwen = Qwen25();
  const ModelConfig& gemma = EmbeddingGemma2();
  const std::vector<Case> cases = {{&qwen, "decode", 1, 128},      {&qwen, "decode", 1, 1024},
                                   {&qwen, "decode", 1, 4096},     {&qwen, "prefill", 50, 50},
                                   {&qwen, "prefill", 2048, 2048}, {&gemma, "encoder", 128, 128}};
  std::vector<std::unique_ptr<KernelBenchmark>> rows;
  for (const Case& c : cases) {
    const SoftmaxShape shape{.rows = c.model->heads * c.t, .row_size = c.s};
    for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
      bench::BenchmarkInfo info;
      info.id = RowId(
          {"softmax", c.model->name, c.phase, "t" + std::to_string(c.t), "s" + std::to_string(c.s)},
          variant);
      info.category = "softmax";
      info.description = c.model->name + " attention scores, " + std::to_string(shape.rows) +
                         " rows (heads x T) of " + std::to_string(shape.row_size) +
                         "; bytes = input read + output written";
      info.params = {
          {"t", c.t}, {"s", c.s}, {"rows", shape.rows}, {"row_size", shape.row_size}};
      info.identity = {.model = c.model->name,
                       .phase = c.phase,
                       .dimensions = {"row_size", "rows", "s", "t"}};
      rows.push_back(std::make_unique<SoftmaxBenchmark>(std::move(info), variant, shape, options));
    }
  }
  return rows;
}

}  // namespace refract::suites::kernels
