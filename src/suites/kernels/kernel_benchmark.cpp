#include "suites/kernels/kernel_benchmark.h"

#include <algorithm>

#include "base/error.h"

namespace refract::suites::kernels {

std::string_view VariantName(Variant variant) {
  return variant == Variant::kBaseline ? "baseline" : "tuned";
}

uint32_t ColdCopies(uint64_t input_bytes, uint64_t footprint_bytes, uint32_t max_copies) {
  if (input_bytes == 0 || input_bytes >= footprint_bytes) return 1;
  const uint64_t copies = (footprint_bytes + input_bytes - 1) / input_bytes;
  return static_cast<uint32_t>(std::clamp<uint64_t>(copies, 1, std::max(max_copies, 1u)));
}

uint64_t DefaultColdFootprintBytes(const gpu::Context& context) {
  // GPUs: 4 × 128 MiB covers the largest last-level caches of current GPUs (H200 L2 ~50 MB,
  // large desktop parts ~100 MB). CPU adapters (lavapipe): 128 MiB, several times a server's L3.
  constexpr uint64_t kMiB = uint64_t{1} << 20;
  return context.description().adapter_type == "cpu" ? 128 * kMiB : 512 * kMiB;
}

KernelBenchmark::KernelBenchmark(bench::BenchmarkInfo info, Variant variant, Metric metric)
    : info_(std::move(info)), variant_(variant), metric_(metric) {
  info_.unit = metric == Metric::kFlops ? "FLOP/s" : "B/s";
  info_.params["variant"] = std::string(VariantName(variant));
}

double KernelBenchmark::WorkPerDispatch() const {
  const KernelCost cost = Cost();
  return (metric_ == Metric::kFlops ? cost.flops : cost.bytes) * copies_;
}

void KernelBenchmark::SetRotation(uint32_t copies, bool cold) {
  REFRACT_THROW_IF(copies == 0, Error, info_.id + ": a rotation needs at least one copy");
  copies_ = copies;
  info_.params["copies"] = copies;
  info_.params["cold"] = cold ? "true" : "false";
}

void KernelBenchmark::SetParam(const std::string& name, results::ParamValue value) {
  info_.params[name] = std::move(value);
}

}  // namespace refract::suites::kernels
