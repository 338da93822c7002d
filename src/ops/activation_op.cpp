#include "ops/op_kinds.h"

#include "gpu/transfer.h"

namespace refract::ops {
namespace {

gpu::Buffer Params(gpu::Context& context, const ActivationShape& p) {
  return gpu::Uniform(context, CountParams{static_cast<uint32_t>(p.count), {}},
                      "activation params");
}

// Baseline kernel: pipelines {silu or gelu, (mul)}, buffers {params}, scratch {(silu(gate))}.
Kernel BaselineCompile(gpu::Context& context, const ActivationShape& p, const NoConfig&,
                       const std::string& label) {
  Kernel kernel{.pipelines = {CompileKernel(context, {"llm_activation_baseline"}, label,
                                            p.kind == ActivationKind::kGelu ? "gelu" : "silu")},
                .buffers = {Params(context, p)}};
  if (p.kind == ActivationKind::kSiluMul) {
    kernel.pipelines.push_back(CompileKernel(context, {"llm_add_mul_baseline"}, label, "mul"));
    kernel.scratch.push_back({4 * p.count, "silu(gate)"});
  }
  return kernel;
}

std::vector<gpu::Dispatch> BaselineRecord(gpu::Context& context, const Kernel& k,
                                          const ActivationShape& p, const NoConfig&,
                                          const ActivationBuffers& b) {
  const uint32_t groups = gpu::GroupsFor(p.count, 256);  // the seed's workgroups of 256
  const gpu::BufferSlice params = k.buffers[0];
  if (p.kind != ActivationKind::kSiluMul) {
    return {OneDispatch(context, k.pipelines[0], {b.x, b.y, params}, groups)};
  }
  const gpu::BufferSlice silu = k.buffers[1];
  return {OneDispatch(context, k.pipelines[0], {b.x, silu, params}, groups),
          OneDispatch(context, k.pipelines[1], {silu, b.up, b.y, params}, groups)};
}

Kernel TunedCompile(gpu::Context& context, const ActivationShape& p, const ActivationConfig& c,
                    const std::string& label) {
  constexpr std::string_view kEntries[] = {"silu", "gelu", "silu_mul"};  // by kind
  const std::string_view element = p.count % 4 == 0 ? "llm_row_vec4_part" : "llm_row_scalar_part";
  return {.pipelines = {CompileKernel(context, {element, "llm_activation_tuned"}, label,
                                      kEntries[static_cast<size_t>(p.kind)],
                                      {{"WG", c.wg}, {"EPT", c.ept}})},
          .buffers = {Params(context, p)}};
}

std::vector<gpu::Dispatch> TunedRecord(gpu::Context& context, const Kernel& k,
                                       const ActivationShape& p, const ActivationConfig& c,
                                       const ActivationBuffers& b) {
  const uint64_t elements = p.count % 4 == 0 ? p.count / 4 : p.count;
  const gpu::BufferSlice up = p.kind == ActivationKind::kSiluMul ? b.up : gpu::BufferSlice{};
  return {OneDispatch(context, k.pipelines[0], {b.x, b.y, k.buffers[0], up},
                      gpu::GroupsFor(elements, c.wg * c.ept))};
}

}  // namespace

const Family<ActivationShape, ActivationConfig, ActivationBuffers> kActivationOps{
    {kActivationRules.baseline, &BaselineCompile, &BaselineRecord},
    {kActivationRules.tuned, &TunedCompile, &TunedRecord}};

}  // namespace refract::ops
