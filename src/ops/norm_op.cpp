#include "ops/op_kinds.h"

#include <bit>

#include "gpu/transfer.h"

namespace refract::ops {
namespace {

// The seed's uniform (§4, §5), padded to 16 bytes; the tuned kernel's is the same.
struct NormParams {
  uint32_t rows, hidden, eps_bits, pad;
};

gpu::Buffer Params(gpu::Context& context, const NormShape& p) {
  return gpu::Uniform(
      context, NormParams{p.shape.rows, p.shape.hidden, std::bit_cast<uint32_t>(p.shape.eps), 0},
      "norm params");
}

// Each kind's tuned entry point (and the seed's for rmsnorm and layernorm).
std::string_view Entry(NormKind kind) {
  constexpr std::string_view kEntries[] = {"rmsnorm", "layernorm", "add_rmsnorm"};
  return kEntries[static_cast<size_t>(kind)];
}

// Baseline kernel: pipelines {norm, (add)}, buffers {params, (add params)}.
Kernel BaselineCompile(gpu::Context& context, const NormShape& p, const NoConfig&,
                       const std::string& label) {
  const bool add = p.kind == NormKind::kAddRmsNorm;
  Kernel kernel{.pipelines = {CompileKernel(context, {"llm_norm_baseline"}, label,
                                            add ? "rmsnorm" : Entry(p.kind))},
                .buffers = {Params(context, p)}};
  if (add) {
    kernel.pipelines.push_back(CompileKernel(context, {"llm_add_mul_baseline"}, label, "add"));
    kernel.buffers.push_back(
        gpu::Uniform(context, CountParams{p.shape.rows * p.shape.hidden, {}}, "add params"));
  }
  return kernel;
}

std::vector<gpu::Dispatch> BaselineRecord(gpu::Context& context, const Kernel& k,
                                          const NormShape& p, const NoConfig&,
                                          const NormBuffers& b) {
  const gpu::BufferSlice params = k.buffers[0];
  const uint32_t rows = p.shape.rows;
  switch (p.kind) {
    case NormKind::kRmsNorm:
      return {OneDispatch(context, k.pipelines[0], {b.x, b.weight, b.y, params}, rows)};
    case NormKind::kLayerNorm:
      return {OneDispatch(context, k.pipelines[0], {b.x, b.weight, b.bias, b.y, params}, rows)};
    case NormKind::kAddRmsNorm: {
      const uint64_t count = uint64_t{rows} * p.shape.hidden;
      return {OneDispatch(context, k.pipelines[1], {b.x, b.b, b.h, k.buffers[1]},
                          gpu::GroupsFor(count, 256)),
              OneDispatch(context, k.pipelines[0], {b.h, b.weight, b.y, params}, rows)};
    }
  }
  return {};
}

Kernel TunedCompile(gpu::Context& context, const NormShape& p, const RowConfig& c,
                    const std::string& label) {
  const uint32_t hidden = p.shape.hidden;
  return {.pipelines = {CompileKernel(
              context, {RowReductionPart(c), RowElementPart(hidden), "llm_norm_tuned"}, label,
              Entry(p.kind), RowConstants(c))},
          .buffers = {Params(context, p)}};
}

std::vector<gpu::Dispatch> TunedRecord(gpu::Context& context, const Kernel& k, const NormShape& p,
                                       const RowConfig&, const NormBuffers& b) {
  const bool layer = p.kind == NormKind::kLayerNorm, add = p.kind == NormKind::kAddRmsNorm;
  return {OneDispatch(context, k.pipelines[0],
                      {b.x, b.weight, b.y, k.buffers[0], layer ? b.bias : gpu::BufferSlice{},
                       add ? b.b : gpu::BufferSlice{}, add ? b.h : gpu::BufferSlice{}},
                      p.shape.rows)};
}

}  // namespace

const Family<NormShape, RowConfig, NormBuffers> kNormOps{
    {kNormRules.baseline, &BaselineCompile, &BaselineRecord},
    {kNormRules.tuned, &TunedCompile, &TunedRecord}};

}  // namespace refract::ops
