#include "suites/kernels/activation_benchmark.h"

#include "base/error.h"
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "reference/compare.h"
#include "reference/llm_activation.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_pipeline.h"
#include "suites/kernels/kernel_support.h"
#include "suites/kernels/model_shapes.h"

namespace refract::suites::kernels {
namespace {

constexpr uint32_t kSeedWorkgroup = 256;

/// What each kind is: its name, the tuned kernel's entry point, and its model work a value.
struct KindFacts {
  std::string_view name, entry;
  double flops, bytes;
};

const KindFacts& Facts(ActivationKind kind) {
  // In ActivationKind's order.
  static constexpr KindFacts kFacts[] = {
      {"silu", "silu", 4, 8}, {"gelu", "gelu", 9, 8}, {"silu-mul", "silu_mul", 5, 12}};
  return kFacts[static_cast<size_t>(kind)];
}

KernelCost ActivationCost(ActivationKind kind, uint64_t count) {
  const double n = static_cast<double>(count);
  return {.flops = Facts(kind).flops * n, .bytes = Facts(kind).bytes * n};
}

}  // namespace

std::string_view ActivationKindName(ActivationKind kind) { return Facts(kind).name; }

ActivationBenchmark::ActivationBenchmark(bench::BenchmarkInfo info, Variant variant,
                                         ActivationKind kind, uint64_t count, KernelOptions options)
    : KernelBenchmark(std::move(info), variant, Metric::kBytes, ActivationCost(kind, count),
                      4 * count, std::move(options)),
      kind_(kind),
      count_(count) {
  REFRACT_THROW_IF(count_ == 0 || count_ > UINT32_MAX, UsageError,
                   "an activation needs 1 to 2^32 - 1 values");
}

void ActivationBenchmark::Prepare(gpu::Context& context) {
  Release();
  const bool gated = kind_ == ActivationKind::kSiluMul;
  x_ = reference::RandomFloats(count_, options().seed, -8.0f, 8.0f);
  if (gated) up_ = reference::RandomFloats(count_, options().seed + 1, -2.0f, 2.0f);
  const gpu::Buffer params = gpu::Uniform(context, CountParams{static_cast<uint32_t>(count_), {}});
  // The baseline silu-mul is the seed's silu into a buffer of its own, then the seed's mul.
  const bool two_passes = gated && variant() == Variant::kBaseline;
  gpu::ComputePipeline first, second;
  uint32_t groups = gpu::GroupsFor(count_, kSeedWorkgroup);
  if (variant() == Variant::kBaseline) {
    first = CompileKernel(context, {"llm_activation_baseline"}, info().id,
                          kind_ == ActivationKind::kGelu ? "gelu" : "silu");
    if (two_passes) second = CompileKernel(context, {"llm_add_mul_baseline"}, info().id, "mul");
  } else {
    const uint32_t width = count_ % 4 == 0 ? 4 : 1;
    RequireKnownOverrides(options().overrides, {"WG", "EPT"}, "a tuned activation");
    const uint32_t wg = OverrideOr(options().overrides, "WG", 256);
    const uint32_t ept = OverrideOr(options().overrides, "EPT", 2);
    first = CompileKernel(
        context, {width == 4 ? "llm_row_vec4_part" : "llm_row_scalar_part", "llm_activation_tuned"},
        info().id, Facts(kind_).entry, {{"WG", wg}, {"EPT", ept}});
    groups = gpu::GroupsFor(count_ / width, wg * ept);
    SetParam("WG", wg);
    SetParam("EPT", ept);
    SetParam("vec", width);
  }
  BuildCopies(context, 4 * (x_.size() + up_.size()), [&](uint32_t) {
    const gpu::Buffer x = StorageWith(context, x_, "activation x");
    const gpu::Buffer y = StorageOf(context, count_, "activation y");
    const gpu::Buffer first_y = two_passes ? StorageOf(context, count_, "silu(gate)") : y;
    gpu::DispatchBuilder builder(context, first);
    builder.Buffer(0, x).Buffer(1, first_y).Buffer(2, params);
    if (gated && !two_passes) builder.Buffer(3, StorageWith(context, up_, "up"));
    Copy copy{.dispatches = {builder.Groups(groups).Build()}, .kept = {y}};
    if (two_passes) {
      copy.dispatches.push_back(gpu::DispatchBuilder(context, second)
                                    .Buffer(0, first_y)
                                    .Buffer(1, StorageWith(context, up_, "up"))
                                    .Buffer(2, y)
                                    .Buffer(3, params)
                                    .Groups(groups)
                                    .Build());
    }
    return copy;
  });
}

VerificationRecord ActivationBenchmark::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const std::vector<float> gpu = gpu::Download<float>(context, FirstCopyBuffer(0), count_);
  if (kind_ == ActivationKind::kGelu) {
    const std::vector<float> cpu = reference::Gelu(x_);
    return reference::Compare(info().id, gpu, cpu,
                              reference::ActivationTolerance(reference::kGeluRelTolerance, cpu));
  }
  const std::vector<float> cpu =
      kind_ == ActivationKind::kSilu ? reference::Silu(x_) : reference::SiluMul(x_, up_);
  return reference::Compare(info().id, gpu, cpu,
                            reference::ActivationTolerance(reference::kSiluRelTolerance, cpu));
}

std::vector<std::unique_ptr<KernelBenchmark>> ActivationBenchmarks(const KernelOptions& options) {
  std::vector<std::unique_ptr<KernelBenchmark>> rows;
  for (ActivationKind kind :
       {ActivationKind::kSilu, ActivationKind::kGelu, ActivationKind::kSiluMul}) {
    const std::string name(ActivationKindName(kind));
    for (const auto& [m, t, variant] : TokenCases()) {
      bench::BenchmarkInfo info =
          TokenRowInfo(name, m->name, t, variant, "activation",
                       name + " of " + std::to_string(t) + " x " + std::to_string(m->intermediate) +
                           " values (" + m->name + " FFN); bytes = inputs read + output written",
                       {{"width", m->intermediate}});
      rows.push_back(std::make_unique<ActivationBenchmark>(std::move(info), variant, kind,
                                                           uint64_t{t} * m->intermediate, options));
    }
  }
  return rows;
}

}  // namespace refract::suites::kernels
