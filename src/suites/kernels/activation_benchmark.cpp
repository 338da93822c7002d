#include "suites/kernels/activation_benchmark.h"

#include <optional>

#include "gpu/transfer.h"
#include "reference/compare.h"
#include "reference/llm_activation.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_support.h"
#include "suites/kernels/model_shapes.h"

namespace refract::suites::kernels {
namespace {

/// Each kind's model work a value, in ActivationKind's order.
KernelCost ActivationCost(ActivationKind kind, uint64_t count) {
  static constexpr double kFlops[] = {4, 9, 5}, kBytes[] = {8, 8, 12};
  const double n = static_cast<double>(count);
  const auto at = static_cast<size_t>(kind);
  return {.flops = kFlops[at] * n, .bytes = kBytes[at] * n};
}

}  // namespace

ActivationBenchmark::ActivationBenchmark(bench::BenchmarkInfo info, Variant variant,
                                         ActivationKind kind, uint64_t count, KernelOptions options)
    : KernelBenchmark(std::move(info), variant, Metric::kBytes, ActivationCost(kind, count),
                      std::move(options)),
      kind_(kind),
      count_(count) {}

ops::Problem ActivationBenchmark::CheckOn(const DeviceLimits& limits) const {
  if (variant() == Variant::kBaseline) {
    return ops::ActivationBaselineOp::Check(kind_, count_, limits);
  }
  if (auto unknown = UnknownSettings({&ops::ActivationTunedOp::Axes().axes()})) return unknown;
  const ops::ActivationConfig config =
      ops::ActivationTunedOp::Resolve(count_, limits, options().settings);
  return ops::ActivationTunedOp::Check(kind_, config, count_, limits);
}

void ActivationBenchmark::Prepare(gpu::Context& context) {
  RequireRunnable(context);
  Release();
  const bool gated = kind_ == ActivationKind::kSiluMul;
  x_ = reference::RandomFloats(count_, options().seed, -8.0f, 8.0f);
  if (gated) up_ = reference::RandomFloats(count_, options().seed + 1, -2.0f, 2.0f);
  std::optional<ops::ActivationBaselineOp> baseline;
  std::optional<ops::ActivationTunedOp> tuned;
  if (variant() == Variant::kBaseline) {
    baseline.emplace(context, kind_, count_, info().id);
  } else {
    tuned.emplace(context, kind_, count_,
                  ops::ActivationTunedOp::Resolve(count_, context.limits(), options().settings),
                  info().id);
    SetAxes(ops::ActivationTunedOp::Axes().ValuesOf(tuned->config()));
    SetParam("vec", count_ % 4 == 0 ? 4 : 1);
  }
  BuildCopies(context, 4 * (x_.size() + up_.size()), [&](uint32_t) {
    const gpu::Buffer y = StorageOf(context, count_, "activation y");
    ops::ActivationBuffers b{.x = StorageWith(context, x_, "activation x"), .y = y};
    if (gated) b.up = StorageWith(context, up_, "up");
    return Copy{.dispatches = baseline ? baseline->Record(context, b) : tuned->Record(context, b),
                .kept = {y}};
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
