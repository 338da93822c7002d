#include "suites/kernels/rope_benchmark.h"

#include "gpu/transfer.h"
#include "reference/compare.h"
#include "reference/random_data.h"
#include "suites/kernels/kernel_support.h"
#include "suites/kernels/model_shapes.h"

namespace refract::suites::kernels {
namespace {

using reference::RopeShape;

KernelCost RopeCost(const RopeShape& shape) {
  const double values =
      static_cast<double>(shape.seq_len) * (shape.heads + shape.kv_heads) * shape.head_dim;
  return {.flops = 3 * values, .bytes = 8 * values};
}

}  // namespace

RopeBenchmark::RopeBenchmark(bench::BenchmarkInfo info, Variant variant, RopeShape shape,
                             KernelOptions options)
    : OpRow(std::move(info), variant, Metric::kBytes, RopeCost(shape), std::move(options), shape,
            ops::kRopeOps) {}

void RopeBenchmark::Prepare(gpu::Context& context) {
  const auto record = BuildOp(context);
  const RopeShape& s = shape();
  q_ = reference::RandomFloats(size_t{s.seq_len} * s.heads * s.head_dim, options().seed);
  k_ = reference::RandomFloats(size_t{s.seq_len} * s.kv_heads * s.head_dim, options().seed + 1);
  BuildCopies(context, 4 * (q_.size() + k_.size()), [&](uint32_t) {
    const gpu::Buffer q = StorageWith(context, q_, "rope q");
    const gpu::Buffer k = StorageWith(context, k_, "rope k");
    return Copy{.dispatches = record({.q = q, .k = k}), .kept = {q, k}};
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
  reference::Rope(shape(), q, k);
  std::vector<float> cpu = std::move(q);
  cpu.insert(cpu.end(), k.begin(), k.end());
  const size_t q_values = q_.size();
  const uint32_t d = shape().head_dim, hq = shape().heads, hk = shape().kv_heads;
  auto namer = [q_values, d, hq, hk](size_t index) {
    const bool is_q = index < q_values;
    const size_t i = is_q ? index : index - q_values;
    const uint32_t heads = is_q ? hq : hk;
    return std::string(is_q ? "q" : "k") + " position " + std::to_string(i / (size_t{heads} * d)) +
           ", head " + std::to_string(i / d % heads) + ", dim " + std::to_string(i % d);
  };
  return reference::Compare(info().id, gpu, cpu, reference::RopeTolerance(shape(), cpu), namer);
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
