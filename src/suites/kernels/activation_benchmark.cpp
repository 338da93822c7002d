#include "suites/kernels/activation_benchmark.h"

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
    : OpRow(std::move(info), variant, Metric::kBytes, ActivationCost(kind, count),
            std::move(options), {.kind = kind, .count = count}, ops::kActivationOps) {}

void ActivationBenchmark::Prepare(gpu::Context& context) {
  const auto record = BuildOp(context);
  const uint64_t count = shape().count;
  const bool gated = shape().kind == ActivationKind::kSiluMul;
  x_ = reference::RandomFloats(count, options().seed, -8.0f, 8.0f);
  if (gated) up_ = reference::RandomFloats(count, options().seed + 1, -2.0f, 2.0f);
  if (variant() == Variant::kTuned) SetParam("vec", count % 4 == 0 ? 4 : 1);
  BuildCopies(context, 4 * (x_.size() + up_.size()), [&](uint32_t) {
    const gpu::Buffer y = StorageOf(context, count, "activation y");
    ops::ActivationBuffers b{.x = StorageWith(context, x_, "activation x"), .y = y};
    if (gated) b.up = StorageWith(context, up_, "up");
    return Copy{.dispatches = record(b), .kept = {y}};
  });
}

VerificationRecord ActivationBenchmark::Verify(gpu::Context& context) {
  RunFirstCopy(context);
  const std::vector<float> gpu = gpu::Download<float>(context, FirstCopyBuffer(0), shape().count);
  if (shape().kind == ActivationKind::kGelu) {
    const std::vector<float> cpu = reference::Gelu(x_);
    return reference::Compare(info().id, gpu, cpu,
                              reference::ActivationTolerance(reference::kGeluRelTolerance, cpu));
  }
  const std::vector<float> cpu =
      shape().kind == ActivationKind::kSilu ? reference::Silu(x_) : reference::SiluMul(x_, up_);
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
