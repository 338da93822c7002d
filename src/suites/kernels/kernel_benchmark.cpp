#include "suites/kernels/kernel_benchmark.h"

#include <algorithm>

#include "base/error.h"

namespace refract::suites::kernels {

std::string_view VariantName(Variant variant) {
  constexpr std::string_view kNames[] = {"baseline", "tuned", "tuned-q8"};
  return kNames[static_cast<size_t>(variant)];
}

std::string RowId(std::initializer_list<std::string> parts, Variant variant) {
  std::string id;
  for (const std::string& part : parts) id += part + "/";
  return id + std::string(VariantName(variant));
}

bench::BenchmarkInfo TokenRowInfo(const std::string& kernel, const std::string& model, uint32_t t,
                                  Variant variant, std::string category, std::string description,
                                  results::Params params) {
  params["t"] = t;
  results::RowIdentity identity{.model = model};
  for (const auto& [name, value] : params) {
    if (!value.IsText()) identity.dimensions.push_back(name);
  }
  return {.id = RowId({kernel, model, "t" + std::to_string(t)}, variant),
          .category = std::move(category),
          .description = std::move(description),
          .params = std::move(params),
          .identity = std::move(identity)};
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

KernelBenchmark::KernelBenchmark(bench::BenchmarkInfo info, Variant variant, Metric metric,
                                 KernelCost cost, KernelOptions options)
    : info_(std::move(info)),
      variant_(variant),
      metric_(metric),
      cost_(cost),
      options_(std::move(options)) {
  info_.unit = metric == Metric::kFlops ? "FLOP/s" : "B/s";
  info_.identity.variant = std::string(VariantName(variant));
}

std::optional<std::string> KernelBenchmark::MissingRequirement(const gpu::Context& context) const {
  return CheckOn(context.limits());
}

void KernelBenchmark::RequireRunnable(const gpu::Context& context) const {
  ops::ThrowIfRefused(MissingRequirement(context), info_.id);
}

ops::Refusal KernelBenchmark::UnknownSettings(
    std::initializer_list<const std::vector<ops::Axis>*> tables) const {
  for (const auto& [name, value] : options_.settings) {
    bool known = false;
    for (const std::vector<ops::Axis>* table : tables) {
      for (const ops::Axis& axis : *table) known = known || axis.name == name;
    }
    if (!known) return "the tuned kernel has no axis named " + name;
  }
  return std::nullopt;
}

void KernelBenchmark::SetAxes(const ops::Settings& values) {
  for (const auto& [name, value] : values) info_.params[name] = value;
}

void KernelBenchmark::Release() {
  dispatches_.clear();
  timed_dispatches_.clear();
  dispatches_per_copy_ = 1;
  first_copy_buffers_.clear();
}

double KernelBenchmark::WorkPerDispatch() const {
  return (metric_ == Metric::kFlops ? cost_.flops : cost_.bytes) * copies_;
}

void KernelBenchmark::Describe(results::ResultRow& row) const {
  results::Roofline roofline;
  roofline.flops = cost_.flops;
  roofline.bytes = cost_.bytes;
  roofline.intensity = cost_.bytes > 0 ? cost_.flops / cost_.bytes : results::kNoValue;
  row.roofline = roofline;
}

void KernelBenchmark::Tag(const std::string& kernel, const std::string& phase) {
  info_.identity.kernel = kernel;
  info_.identity.phase = phase;
  info_.identity.problem = info_.id.substr(info_.id.find('/') + 1);
}

void KernelBenchmark::Rename(std::string id, std::string category,
                             const results::Params& params) {
  info_.id = std::move(id);
  info_.category = std::move(category);
  for (const auto& [name, value] : params) info_.params[name] = value;
}

void KernelBenchmark::BuildCopies(const gpu::Context& context, uint64_t input_bytes,
                                  const std::function<Copy(uint32_t copy)>& make_copy) {
  const uint64_t footprint = options_.cold_footprint_bytes != 0
                                 ? options_.cold_footprint_bytes
                                 : DefaultColdFootprintBytes(context);
  const uint32_t copies = ColdCopies(input_bytes, footprint);
  Release();
  for (uint32_t copy = 0; copy < copies; ++copy) {
    Copy built = make_copy(copy);
    const size_t count = built.dispatches.size();
    REFRACT_THROW_IF(count == 0 || (copy > 0 && count != dispatches_per_copy_), Error,
                     info_.id + ": every copy needs the same number of dispatches");
    dispatches_per_copy_ = count;
    dispatches_.insert(dispatches_.end(), built.dispatches.begin(), built.dispatches.end());
    if (copy == 0) first_copy_buffers_ = std::move(built.kept);
  }
  if (options_.time_dispatch) {
    const uint32_t index = *options_.time_dispatch;
    REFRACT_THROW_IF(index >= dispatches_per_copy_, Error,
                     info_.id + ": --time-dispatch " + std::to_string(index) + " but a call has " +
                         std::to_string(dispatches_per_copy_) + " dispatch(es), 0 to " +
                         std::to_string(dispatches_per_copy_ - 1));
    for (size_t at = index; at < dispatches_.size(); at += dispatches_per_copy_) {
      timed_dispatches_.push_back(dispatches_[at]);
    }
    info_.params["timed_dispatch"] =
        std::to_string(index) + " of " + std::to_string(dispatches_per_copy_);
  }
  copies_ = copies;
  info_.params["copies"] = copies;
  info_.params["cold"] = copies * input_bytes >= footprint ? "true" : "false";
}

void KernelBenchmark::RunFirstCopy(gpu::Context& context) {
  REFRACT_THROW_IF(dispatches_.empty(), Error, info_.id + ": Verify before Prepare");
  context.RunPass(std::span(dispatches_.data(), dispatches_per_copy_), 1, false);
}

const gpu::Buffer& KernelBenchmark::FirstCopyBuffer(size_t index) const {
  REFRACT_THROW_IF(index >= first_copy_buffers_.size(), Error,
                   info_.id + ": Verify before Prepare");
  return first_copy_buffers_[index];
}

void KernelBenchmark::SetParam(const std::string& name, results::ParamValue value) {
  info_.params[name] = std::move(value);
}

}  // namespace refract::suites::kernels
