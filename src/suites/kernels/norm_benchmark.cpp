#include "suites/kernels/norm_benchmark.h"

#include "gpu/transfer.h"
#include "reference/compare.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_support.h"
#include "suites/kernels/model_shapes.h"

namespace refract::suites::kernels {
namespace {

using reference::NormShape;

/// Each kind's model work: FLOP a value, bytes a value and a row element (weight and bias read
/// once an invocation).
struct KindCost {
  double flops, bytes, bytes_per_hidden;
};

KernelCost NormCost(NormKind kind, const NormShape& shape) {
  // In NormKind's order.
  static constexpr KindCost kCosts[] = {{4, 8, 4}, {8, 8, 8}, {5, 16, 4}};
  const KindCost& c = kCosts[static_cast<size_t>(kind)];
  const double values = static_cast<double>(shape.rows) * shape.hidden;
  return {.flops = c.flops * values, .bytes = c.bytes * values + c.bytes_per_hidden * shape.hidden};
}

}  // namespace

NormInputs MakeNormInputs(NormKind kind, const NormShape& shape, uint64_t seed) {
  const size_t values = size_t{shape.rows} * shape.hidden;
  NormInputs in;
  in.x = reference::RandomFloats(values, seed, -2.0f, 2.0f);
  for (size_t i = 0; i < values; ++i) in.x[i] += 40.0f * static_cast<float>(i / shape.hidden % 3);
  in.weight = reference::RandomFloats(shape.hidden, seed + 1, 0.5f, 1.5f);
  if (kind == NormKind::kLayerNorm) in.bias = reference::RandomFloats(shape.hidden, seed + 2);
  if (kind == NormKind::kAddRmsNorm) in.b = reference::RandomFloats(values, seed + 3, -2.0f, 2.0f);
  return in;
}

NormBenchmark::NormBenchmark(bench::BenchmarkInfo info, Variant variant, NormKind kind,
                             NormShape shape, KernelOptions options)
    : OpRow(std::move(info), variant, Metric::kBytes, NormCost(kind, shape), std::move(options),
            {.kind = kind, .shape = shape}, ops::kNormOps) {}

void NormBenchmark::Prepare(gpu::Context& context) {
  const auto record = BuildOp(context);
  const NormKind kind = shape().kind;
  inputs_ = MakeNormInputs(kind, shape().shape, options().seed);
  if (variant() == Variant::kTuned) SetParam("vec", ops::RowWidth(shape().shape.hidden));
  const uint64_t input_bytes =
      4 * (inputs_.x.size() + inputs_.b.size() + inputs_.weight.size() + inputs_.bias.size());
  const uint64_t values = inputs_.x.size();
  BuildCopies(context, input_bytes, [&](uint32_t) {
    ops::NormBuffers b;
    b.x = StorageWith(context, inputs_.x, "norm x");
    b.weight = StorageWith(context, inputs_.weight, "norm weight");
    if (!inputs_.bias.empty()) b.bias = StorageWith(context, inputs_.bias, "norm bias");
    gpu::Buffer y = StorageOf(context, values, "norm y"), h;
    if (!inputs_.b.empty()) {
      b.b = StorageWith(context, inputs_.b, "norm b");
      h = StorageOf(context, values, "norm h");
      b.h = h;
    }
    b.y = y;
    return Copy{.dispatches = record(b), .kept = {y, h}};
  });
}

VerificationRecord NormBenchmark::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const size_t values = inputs_.x.size();
  const NormShape& norm = shape().shape;
  const uint32_t d = norm.hidden;
  auto namer = [d](size_t index) {
    return "row " + std::to_string(index / d) + ", col " + std::to_string(index % d);
  };
  const std::vector<float> y = gpu::Download<float>(context, FirstCopyBuffer(0), values);
  std::vector<float> cpu;
  VerificationRecord h_record;
  switch (shape().kind) {
    case NormKind::kRmsNorm:
      cpu = reference::RmsNorm(norm, inputs_.x, inputs_.weight);
      break;
    case NormKind::kLayerNorm:
      cpu = reference::LayerNorm(norm, inputs_.x, inputs_.weight, inputs_.bias);
      break;
    case NormKind::kAddRmsNorm: {
      reference::AddRmsNormResult r =
          reference::AddRmsNorm(norm, inputs_.x, inputs_.b, inputs_.weight);
      const std::vector<float> h = gpu::Download<float>(context, FirstCopyBuffer(1), values);
      h_record = reference::Compare(info().id + " h", h, r.h, Tolerance{}, namer);
      cpu = std::move(r.y);
      break;
    }
  }
  VerificationRecord record =
      reference::Compare(info().id, y, cpu, reference::NormTolerance(cpu), namer);
  record.elements += h_record.elements;
  return record;
}

std::vector<std::unique_ptr<KernelBenchmark>> NormBenchmarks(const KernelOptions& options) {
  std::vector<std::unique_ptr<KernelBenchmark>> rows;
  for (NormKind kind : {NormKind::kRmsNorm, NormKind::kLayerNorm, NormKind::kAddRmsNorm}) {
    const std::string name(NormKindName(kind));
    for (const auto& [model, t, variant] : TokenCases()) {
      const NormShape shape{.rows = t, .hidden = model->hidden, .eps = model->norm_eps};
      bench::BenchmarkInfo info = TokenRowInfo(
          name, model->name, t, variant, "norm",
          name + " of " + std::to_string(t) + " rows x " + std::to_string(model->hidden) + " (" +
              model->name + "); bytes = inputs read once + outputs written once",
          {{"hidden", model->hidden}});
      rows.push_back(
          std::make_unique<NormBenchmark>(std::move(info), variant, kind, shape, options));
    }
  }
  return rows;
}

}  // namespace refract::suites::kernels
