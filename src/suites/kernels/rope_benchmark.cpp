#include "suites/kernels/rope_benchmark.h"

#include <algorithm>
#include <bit>
#include <cmath>

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

using reference::RopeShape;

// The seed's uniform (§6), padded to 16 bytes.
struct BaselineParams {
  uint32_t seq_len, num_q_heads, num_kv_heads, head_dim, rope_base_bits, position_offset,
      padding[2];
};
// llm_rope_tuned.wgsl's uniform.
struct TunedParams {
  uint32_t seq_len, q_heads, kv_heads, head_dim, position_offset, padding[3];
};

KernelCost RopeCost(const RopeShape& shape) {
  const double values =
      static_cast<double>(shape.seq_len) * (shape.heads + shape.kv_heads) * shape.head_dim;
  return {.flops = 3 * values, .bytes = 8 * values};
}

}  // namespace

std::vector<float> RopeInverseFrequencies(const RopeShape& shape) {
  std::vector<float> inv_freq(shape.head_dim / 2);
  for (size_t i = 0; i < inv_freq.size(); ++i) {
    inv_freq[i] = static_cast<float>(
        std::pow(static_cast<double>(shape.base), -2.0 * static_cast<double>(i) / shape.head_dim));
  }
  return inv_freq;
}

RopeBenchmark::RopeBenchmark(bench::BenchmarkInfo info, Variant variant, RopeShape shape,
                             KernelOptions options)
    : KernelBenchmark(std::move(info), variant, Metric::kBytes, RopeCost(shape),
                      uint64_t{4} * shape.seq_len * shape.heads * shape.head_dim,
                      std::move(options)),
      shape_(shape) {
  REFRACT_THROW_IF(shape_.seq_len == 0 || shape_.heads == 0 || shape_.kv_heads == 0 ||
                       shape_.head_dim == 0 || shape_.head_dim % 2 != 0,
                   UsageError, "RoPE needs T and heads above 0 and an even head_dim");
  REFRACT_THROW_IF(variant == Variant::kTuned && shape_.head_dim % 4 != 0, UsageError,
                   "the tuned RoPE rotates vec4 (two pairs): head_dim must be a multiple of 4");
}

void RopeBenchmark::Prepare(gpu::Context& context) {
  Release();
  q_ = reference::RandomFloats(size_t{shape_.seq_len} * shape_.heads * shape_.head_dim,
                               options().seed);
  k_ = reference::RandomFloats(size_t{shape_.seq_len} * shape_.kv_heads * shape_.head_dim,
                               options().seed + 1);
  const uint32_t heads = shape_.heads + shape_.kv_heads;
  gpu::ComputePipeline pipeline;
  gpu::Buffer params, inv_freq;
  uint32_t groups = 0;
  if (variant() == Variant::kBaseline) {
    pipeline = CompileKernel(context, {"llm_rope_baseline"}, info().id);
    params = gpu::Uniform(context, BaselineParams{shape_.seq_len,
                                                  shape_.heads,
                                                  shape_.kv_heads,
                                                  shape_.head_dim,
                                                  std::bit_cast<uint32_t>(shape_.base),
                                                  shape_.position_offset,
                                                  {}});
    const uint64_t pairs =
        uint64_t{shape_.seq_len} * std::max(shape_.heads, shape_.kv_heads) * (shape_.head_dim / 2);
    groups = gpu::GroupsFor(pairs, 256);
  } else {
    RequireKnownOverrides(options().overrides, {"WG", "HPT"}, "tuned RoPE");
    const uint32_t wg = OverrideOr(options().overrides, "WG", 256);
    uint32_t hpt = 4;  // the largest of 4, 3, 2, 1 that divides the heads: no idle slots
    while (heads % hpt != 0) --hpt;
    hpt = OverrideOr(options().overrides, "HPT", hpt);
    pipeline =
        CompileKernel(context, {"llm_rope_tuned"}, info().id, "main", {{"WG", wg}, {"HPT", hpt}});
    params = gpu::Uniform(context, TunedParams{shape_.seq_len,
                                               shape_.heads,
                                               shape_.kv_heads,
                                               shape_.head_dim,
                                               shape_.position_offset,
                                               {}});
    inv_freq = StorageWith(context, RopeInverseFrequencies(shape_), "rope inverse frequencies");
    const uint64_t threads =
        uint64_t{shape_.seq_len} * ((heads + hpt - 1) / hpt) * (shape_.head_dim / 4);
    groups = gpu::GroupsFor(threads, wg);
    SetParam("WG", wg);
    SetParam("HPT", hpt);
  }
  BuildCopies(context, 4 * (q_.size() + k_.size()), [&](uint32_t) {
    const gpu::Buffer q = StorageWith(context, q_, "rope q");
    const gpu::Buffer k = StorageWith(context, k_, "rope k");
    gpu::DispatchBuilder builder(context, pipeline);
    builder.Buffer(0, q).Buffer(1, k);
    if (variant() == Variant::kBaseline) {
      builder.Buffer(2, params);
    } else {
      builder.Buffer(2, inv_freq).Buffer(3, params);
    }
    return Copy{.dispatches = {builder.Groups(groups).Build()}, .kept = {q, k}};
  });
}

VerificationRecord RopeBenchmark::Verify(gpu::Context& context) {
  const gpu::Buffer& q_buffer = FirstCopyBuffer(0);
  const gpu::Buffer& k_buffer = FirstCopyBuffer(1);
  context.WriteBuffer(q_buffer, 0, std::as_bytes(std::span(q_)));  // earlier runs rotated them
  context.WriteBuffer(k_buffer, 0, std::as_bytes(std::span(k_)));
  RunFirstCopy(context);
  std::vector<float> gpu = gpu::Download<float>(context, q_buffer, q_.size());
  const std::vector<float> gpu_k = gpu::Download<float>(context, k_buffer, k_.size());
  gpu.insert(gpu.end(), gpu_k.begin(), gpu_k.end());
  std::vector<float> q = q_, k = k_;
  reference::Rope(shape_, q, k);
  std::vector<float> cpu = std::move(q);
  cpu.insert(cpu.end(), k.begin(), k.end());
  const size_t q_values = q_.size();
  const uint32_t d = shape_.head_dim, hq = shape_.heads, hk = shape_.kv_heads;
  auto namer = [q_values, d, hq, hk](size_t index) {
    const bool is_q = index < q_values;
    const size_t i = is_q ? index : index - q_values;
    const uint32_t heads = is_q ? hq : hk;
    return std::string(is_q ? "q" : "k") + " position " + std::to_string(i / (size_t{heads} * d)) +
           ", head " + std::to_string(i / d % heads) + ", dim " + std::to_string(i % d);
  };
  return reference::Compare(info().id, gpu, cpu, reference::RopeTolerance(shape_, cpu), namer);
}

std::vector<std::unique_ptr<KernelBenchmark>> RopeBenchmarks(const KernelOptions& options) {
  std::vector<std::unique_ptr<KernelBenchmark>> rows;
  for (const auto& [m, t, variant] : TokenCases()) {
    const RopeShape shape{.seq_len = t,
                          .heads = m->heads,
                          .kv_heads = m->kv_heads,
                          .head_dim = m->head_dim,
                          .position_offset = t == 1 ? 4095u : 0u,
                          .base = m->rope_theta};
    bench::BenchmarkInfo info =
        TokenRowInfo("rope", m->name, t, variant, "rope",
                     "RoPE in place on q (" + std::to_string(m->heads) + " heads) and k (" +
                         std::to_string(m->kv_heads) + ") x " + std::to_string(m->head_dim) + ", " +
                         std::to_string(t) + " positions; bytes = q, k read + written",
                     {{"heads", m->heads},
                      {"kv_heads", m->kv_heads},
                      {"head_dim", m->head_dim},
                      {"position_offset", shape.position_offset},
                      {"theta", static_cast<double>(m->rope_theta)}});
    rows.push_back(std::make_unique<RopeBenchmark>(std::move(info), variant, shape, options));
  }
  return rows;
}

}  // namespace refract::suites::kernels
