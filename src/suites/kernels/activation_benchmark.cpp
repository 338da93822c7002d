#include "suites/kernels/activation_benchmark.h"

#include "base/error.h"
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "reference/compare.h"
#include "reference/llm_activation.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_pipeline.h"
#include "suites/kernels/model_shapes.h"

namespace refract::suites::kernels {
namespace {

constexpr uint32_t kSeedWorkgroup = 256;

// The seed's uniform (§9-12), padded to 16 bytes; the tuned kernels' is the same.
struct CountParams {
  uint32_t count, padding[3];
};

std::string_view EntryPoint(ActivationKind kind) {
  switch (kind) {
    case ActivationKind::kSilu:
      return "silu";
    case ActivationKind::kGelu:
      return "gelu";
    case ActivationKind::kSiluMul:
      return "silu_mul";
  }
  return "";
}

}  // namespace

std::string_view ActivationKindName(ActivationKind kind) {
  return kind == ActivationKind::kSiluMul ? "silu-mul" : EntryPoint(kind);
}

ActivationBenchmark::ActivationBenchmark(bench::BenchmarkInfo info, Variant variant,
                                         ActivationKind kind, uint64_t count, KernelOptions options)
    : KernelBenchmark(std::move(info), variant, Metric::kBytes),
      kind_(kind),
      count_(count),
      options_(std::move(options)) {
  REFRACT_THROW_IF(count_ == 0 || count_ > UINT32_MAX, UsageError,
                   "an activation needs 1 to 2^32 - 1 values");
}

std::optional<std::string> ActivationBenchmark::MissingRequirement(
    const gpu::Context& context) const {
  return BindingTooLarge(context, 4 * count_);
}

void ActivationBenchmark::Prepare(gpu::Context& context) {
  Release();
  x_ = reference::RandomFloats(count_, options_.seed, -8.0f, 8.0f);
  if (kind_ == ActivationKind::kSiluMul)
    up_ = reference::RandomFloats(count_, options_.seed + 1, -2.0f, 2.0f);
  const gpu::Buffer params = gpu::Uniform(context, CountParams{static_cast<uint32_t>(count_), {}});
  gpu::ComputePipeline first, second;
  uint32_t groups = gpu::GroupsFor(count_, kSeedWorkgroup);
  if (variant() == Variant::kBaseline) {
    first = CompileKernel(context, {"llm_activation_baseline"}, info().id,
                          kind_ == ActivationKind::kGelu ? "gelu" : "silu");
    if (kind_ == ActivationKind::kSiluMul) {
      second = CompileKernel(context, {"llm_add_mul_baseline"}, info().id, "mul");
    }
  } else {
    const uint32_t width = count_ % 4 == 0 ? 4 : 1;
    RequireKnownOverrides(options_.overrides, {"WG", "EPT"}, "a tuned activation");
    const uint32_t wg = OverrideOr(options_.overrides, "WG", 256);
    const uint32_t ept = OverrideOr(options_.overrides, "EPT", 2);
    first = CompileKernel(
        context, {width == 4 ? "llm_row_vec4_part" : "llm_row_scalar_part", "llm_activation_tuned"},
        info().id, EntryPoint(kind_), {{"WG", wg}, {"EPT", ept}});
    groups = gpu::GroupsFor(count_ / width, wg * ept);
    SetParam("WG", wg);
    SetParam("EPT", ept);
    SetParam("vec", width);
  }
  const uint64_t input_bytes = 4 * (x_.size() + up_.size());
  const uint64_t footprint = ColdFootprint(context, options_);
  const uint32_t copies = ColdCopies(input_bytes, footprint);
  for (uint32_t c = 0; c < copies; ++c) {
    const gpu::Buffer x = StorageWith(context, x_, "activation x");
    outputs_.push_back(StorageOf(context, count_, "activation y"));
    if (variant() == Variant::kTuned) {
      gpu::DispatchBuilder builder(context, first);
      builder.Buffer(0, x).Buffer(1, outputs_.back()).Buffer(2, params);
      if (kind_ == ActivationKind::kSiluMul) builder.Buffer(3, StorageWith(context, up_, "up"));
      dispatches_.push_back(builder.Groups(groups).Build());
      continue;
    }
    if (kind_ != ActivationKind::kSiluMul) {
      dispatches_.push_back(gpu::DispatchBuilder(context, first)
                                .Buffer(0, x)
                                .Buffer(1, outputs_.back())
                                .Buffer(2, params)
                                .Groups(groups)
                                .Build());
      continue;
    }
    const gpu::Buffer activated = StorageOf(context, count_, "silu(gate)");
    dispatches_.push_back(gpu::DispatchBuilder(context, first)
                              .Buffer(0, x)
                              .Buffer(1, activated)
                              .Buffer(2, params)
                              .Groups(groups)
                              .Build());
    dispatches_.push_back(gpu::DispatchBuilder(context, second)
                              .Buffer(0, activated)
                              .Buffer(1, StorageWith(context, up_, "up"))
                              .Buffer(2, outputs_.back())
                              .Buffer(3, params)
                              .Groups(groups)
                              .Build());
  }
  dispatches_per_copy_ = dispatches_.size() / copies;
  SetRotation(copies, copies * input_bytes >= footprint);
}

VerificationRecord ActivationBenchmark::Verify(gpu::Context& context) {
  REFRACT_THROW_IF(dispatches_.empty(), Error, info().id + ": Verify before Prepare");
  context.RunPass(std::span(dispatches_.data(), dispatches_per_copy_), 1, false);
  const std::vector<float> gpu = gpu::Download<float>(context, outputs_[0], count_);
  std::vector<float> cpu;
  double rel = reference::kSiluRelTolerance;
  switch (kind_) {
    case ActivationKind::kSilu:
      cpu = reference::Silu(x_);
      break;
    case ActivationKind::kGelu:
      cpu = reference::Gelu(x_);
      rel = reference::kGeluRelTolerance;
      break;
    case ActivationKind::kSiluMul:
      cpu = reference::SiluMul(x_, up_);
      break;
  }
  return reference::Compare(info().id, gpu, cpu, reference::ActivationTolerance(rel, cpu));
}

void ActivationBenchmark::Release() {
  dispatches_.clear();
  outputs_.clear();
}

KernelCost ActivationBenchmark::Cost() const {
  const double n = static_cast<double>(count_);
  switch (kind_) {
    case ActivationKind::kSilu:
      return {.flops = 4 * n, .bytes = 8 * n};
    case ActivationKind::kGelu:
      return {.flops = 9 * n, .bytes = 8 * n};
    case ActivationKind::kSiluMul:
      return {.flops = 5 * n, .bytes = 12 * n};
  }
  return {};
}

std::vector<std::unique_ptr<KernelBenchmark>> ActivationBenchmarks(const KernelOptions& options) {
  std::vector<std::unique_ptr<KernelBenchmark>> rows;
  for (ActivationKind kind :
       {ActivationKind::kSilu, ActivationKind::kGelu, ActivationKind::kSiluMul}) {
    for (const ModelConfig* m : {&Qwen25(), &EmbeddingGemma2()}) {
      for (uint32_t t : {1u, 50u, 128u, 2048u}) {
        for (Variant variant : {Variant::kBaseline, Variant::kTuned}) {
          const std::string name(ActivationKindName(kind));
          bench::BenchmarkInfo info;
          info.id = name + "/" + m->name + "/t" + std::to_string(t) + "/" +
                    std::string(VariantName(variant));
          info.category = "activation";
          info.description = name + " of " + std::to_string(t) + " x " +
                             std::to_string(m->intermediate) + " values (" + m->name +
                             " FFN); bytes = inputs read + output written";
          info.params = {{"model", m->name}, {"t", t}, {"width", m->intermediate}};
          rows.push_back(std::make_unique<ActivationBenchmark>(
              std::move(info), variant, kind, uint64_t{t} * m->intermediate, options));
        }
      }
    }
  }
  return rows;
}

}  // namespace refract::suites::kernels
