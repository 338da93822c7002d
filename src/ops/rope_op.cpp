#include "ops/op_kinds.h"

#include <algorithm>
#include <bit>

#include "gpu/transfer.h"

namespace refract::ops {
namespace {

// The seed's uniform (§6), padded to 16 bytes.
struct BaselineParams {
  uint32_t seq_len, heads, kv_heads, head_dim, base_bits, position_offset, padding[2];
};
// llm_rope_tuned.wgsl's uniform.
struct TunedParams {
  uint32_t seq_len, heads, kv_heads, head_dim, position_offset, padding[3];
};

Kernel BaselineCompile(gpu::Context& context, const RopeShape& s, const NoConfig&,
                       const std::string& label) {
  const BaselineParams params{
      s.seq_len,         s.heads, s.kv_heads, s.head_dim, std::bit_cast<uint32_t>(s.base),
      s.position_offset, {}};
  return {.pipelines = {CompileKernel(context, {"llm_rope_baseline"}, label)},
          .buffers = {gpu::Uniform(context, params, "rope params")}};
}

std::vector<gpu::Dispatch> BaselineRecord(gpu::Context& context, const Kernel& k,
                                          const RopeShape& s, const NoConfig&,
                                          const RopeBuffers& b) {
  const uint64_t pairs = uint64_t{s.seq_len} * std::max(s.heads, s.kv_heads) * (s.head_dim / 2);
  return {
      OneDispatch(context, k.pipelines[0], {b.q, b.k, k.buffers[0]}, gpu::GroupsFor(pairs, 256))};
}

// Tuned kernel: buffers {params, inverse frequencies}.
Kernel TunedCompile(gpu::Context& context, const RopeShape& s, const RopeConfig& c,
                    const std::string& label) {
  const TunedParams params{s.seq_len, s.heads, s.kv_heads, s.head_dim, s.position_offset, {}};
  return {.pipelines = {CompileKernel(context, {"llm_rope_tuned"}, label, "main",
                                      {{"WG", c.wg}, {"HPT", c.hpt}})},
          .buffers = {gpu::Uniform(context, params, "rope params"),
                      gpu::Upload(context, RopeInverseFrequencies(s), gpu::kUsageStorage,
                                  "rope inverse frequencies")}};
}

std::vector<gpu::Dispatch> TunedRecord(gpu::Context& context, const Kernel& k, const RopeShape& s,
                                       const RopeConfig& c, const RopeBuffers& b) {
  const uint64_t invocations =
      uint64_t{s.seq_len} * CeilDiv(s.heads + s.kv_heads, c.hpt) * (s.head_dim / 4);
  return {OneDispatch(context, k.pipelines[0], {b.q, b.k, k.buffers[1], k.buffers[0]},
                      gpu::GroupsFor(invocations, c.wg))};
}

}  // namespace

const Family<RopeShape, RopeConfig, RopeBuffers> kRopeOps{
    {kRopeRules.baseline, &BaselineCompile, &BaselineRecord},
    {kRopeRules.tuned, &TunedCompile, &TunedRecord}};

}  // namespace refract::ops
