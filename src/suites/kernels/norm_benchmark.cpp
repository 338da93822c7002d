#include "suites/kernels/norm_benchmark.h"

#include <algorithm>
#include <bit>

#include "base/error.h"
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "reference/compare.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_pipeline.h"
#include "suites/kernels/kernel_support.h"
#include "suites/kernels/model_shapes.h"

namespace refract::suites::kernels {
namespace {

using reference::NormShape;

constexpr uint32_t kMaxKept = 16;  // llm_norm_tuned.wgsl's kMaxKept

// The seed's uniform (§4, §5), padded to 16 bytes; the tuned kernel's is the same.
struct NormParams {
  uint32_t seq_len, hidden_size, eps_bits, pad;
};

/// What each kind is: its name, its entry point (the tuned kernel's; the baseline's for
/// rmsnorm and layernorm), and its model work: FLOP a value, bytes a value and a row element
/// (weight and bias read once an invocation).
struct KindFacts {
  std::string_view name, entry;
  double flops, bytes, bytes_per_hidden;
};

const KindFacts& Facts(NormKind kind) {
  // In NormKind's order.
  static constexpr KindFacts kFacts[] = {{"rmsnorm", "rmsnorm", 4, 8, 4},
                                         {"layernorm", "layernorm", 8, 8, 8},
                                         {"add-rmsnorm", "add_rmsnorm", 5, 16, 4}};
  return kFacts[static_cast<size_t>(kind)];
}

KernelCost NormCost(NormKind kind, const NormShape& shape) {
  const double values = static_cast<double>(shape.rows) * shape.hidden;
  const KindFacts& facts = Facts(kind);
  return {.flops = facts.flops * values,
          .bytes = facts.bytes * values + facts.bytes_per_hidden * shape.hidden};
}

}  // namespace

std::string_view NormKindName(NormKind kind) { return Facts(kind).name; }

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
    : KernelBenchmark(std::move(info), variant, Metric::kBytes, NormCost(kind, shape),
                      uint64_t{4} * shape.rows * shape.hidden, std::move(options)),
      kind_(kind),
      shape_(shape) {
  REFRACT_THROW_IF(shape_.rows == 0 || shape_.hidden == 0, UsageError,
                   "a normalisation needs rows and hidden above 0");
}

std::vector<gpu::Dispatch> NormBenchmark::Build(gpu::Context& context, const Kernels& kernels,
                                                const Buffers& c) const {
  if (variant() == Variant::kBaseline) {
    if (kind_ == NormKind::kAddRmsNorm) {
      const uint64_t count = uint64_t{shape_.rows} * shape_.hidden;
      gpu::Dispatch add = gpu::DispatchBuilder(context, kernels.first)
                              .Buffer(0, c.x)
                              .Buffer(1, c.b)
                              .Buffer(2, c.h)
                              .Buffer(3, kernels.add_params)
                              .Groups(gpu::GroupsFor(count, 256))
                              .Build();
      gpu::DispatchBuilder norm(context, kernels.second);
      norm.Buffer(0, c.h).Buffer(1, c.weight).Buffer(2, c.y).Buffer(3, kernels.params);
      return {add, norm.Groups(shape_.rows).Build()};
    }
    gpu::DispatchBuilder norm(context, kernels.first);
    norm.Buffer(0, c.x).Buffer(1, c.weight);
    if (kind_ == NormKind::kLayerNorm) {
      norm.Buffer(2, c.bias).Buffer(3, c.y).Buffer(4, kernels.params);
    } else {
      norm.Buffer(2, c.y).Buffer(3, kernels.params);
    }
    return {norm.Groups(shape_.rows).Build()};
  }
  gpu::DispatchBuilder norm(context, kernels.first);
  norm.Buffer(0, c.x).Buffer(1, c.weight).Buffer(2, c.y).Buffer(3, kernels.params);
  if (kind_ == NormKind::kLayerNorm) norm.Buffer(4, c.bias);
  if (kind_ == NormKind::kAddRmsNorm) norm.Buffer(5, c.b).Buffer(6, c.h);
  return {norm.Groups(shape_.rows).Build()};
}

void NormBenchmark::Prepare(gpu::Context& context) {
  Release();
  inputs_ = MakeNormInputs(kind_, shape_, options().seed);
  const std::string& label = info().id;
  Kernels kernels;
  if (variant() == Variant::kBaseline) {
    const bool add = kind_ == NormKind::kAddRmsNorm;
    kernels.first = CompileKernel(context, {add ? "llm_add_mul_baseline" : "llm_norm_baseline"},
                                  label, add ? "add" : Facts(kind_).entry);
    if (add) kernels.second = CompileKernel(context, {"llm_norm_baseline"}, label, "rmsnorm");
    kernels.add_params =
        gpu::Uniform(context, CountParams{shape_.rows * shape_.hidden, {}}, "add params");
  } else {
    const RowLayout layout = ResolveRowLayout(context, shape_.hidden, options(), kMaxKept);
    REFRACT_THROW_IF(uint64_t{layout.wg} * layout.vpt * layout.width < shape_.hidden, UsageError,
                     "the tuned normalisation keeps its row in registers: hidden " +
                         std::to_string(shape_.hidden) + " exceeds WG " +
                         std::to_string(layout.wg) + " x VPT " + std::to_string(layout.vpt) +
                         " x " + std::to_string(layout.width));
    kernels.first =
        CompileKernel(context, {layout.ReductionPart(), layout.ElementPart(), "llm_norm_tuned"},
                      label, Facts(kind_).entry, layout.Constants());
    SetParam("path", layout.PathName());
    SetParam("WG", layout.wg);
    SetParam("VPT", layout.vpt);
    SetParam("vec", layout.width);
  }
  kernels.params = gpu::Uniform(
      context, NormParams{shape_.rows, shape_.hidden, std::bit_cast<uint32_t>(shape_.eps), 0});
  const uint64_t input_bytes =
      4 * (inputs_.x.size() + inputs_.b.size() + inputs_.weight.size() + inputs_.bias.size());
  const uint64_t values = inputs_.x.size();
  BuildCopies(context, input_bytes, [&](uint32_t) {
    Buffers c;
    c.x = StorageWith(context, inputs_.x, "norm x");
    c.weight = StorageWith(context, inputs_.weight, "norm weight");
    if (!inputs_.bias.empty()) c.bias = StorageWith(context, inputs_.bias, "norm bias");
    if (!inputs_.b.empty()) {
      c.b = StorageWith(context, inputs_.b, "norm b");
      c.h = StorageOf(context, values, "norm h");
    }
    c.y = StorageOf(context, values, "norm y");
    return Copy{.dispatches = Build(context, kernels, c), .kept = {c.y, c.h}};
  });
}

VerificationRecord NormBenchmark::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const size_t values = inputs_.x.size();
  const uint32_t d = shape_.hidden;
  auto namer = [d](size_t index) {
    return "row " + std::to_string(index / d) + ", col " + std::to_string(index % d);
  };
  const std::vector<float> y = gpu::Download<float>(context, FirstCopyBuffer(0), values);
  std::vector<float> cpu;
  VerificationRecord h_record;
  switch (kind_) {
    case NormKind::kRmsNorm:
      cpu = reference::RmsNorm(shape_, inputs_.x, inputs_.weight);
      break;
    case NormKind::kLayerNorm:
      cpu = reference::LayerNorm(shape_, inputs_.x, inputs_.weight, inputs_.bias);
      break;
    case NormKind::kAddRmsNorm: {
      reference::AddRmsNormResult r =
          reference::AddRmsNorm(shape_, inputs_.x, inputs_.b, inputs_.weight);
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
