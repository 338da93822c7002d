#include "gpu/transfer.h"
#include "ops/op_kinds.h"

namespace refract::ops {
namespace {

struct QuantizeParams {
  uint32_t k, blocks, padding[2];  // blocks: every row's
};

Kernel Compile(gpu::Context& context, const QuantizeShape& shape, const QuantizeConfig& c,
               const std::string& label) {
  const QuantizeParams params{shape.k, static_cast<uint32_t>(shape.m * Q4BlocksOf(shape.k)), {}};
  const std::string_view block_part =
      c.subgroups == 1 ? "llm_quantize_block_subgroup_part" : "llm_quantize_block_workgroup_part";
  return {.pipelines = {CompileKernel(
              context, {block_part, "llm_quantize_q8_part", "llm_quantize_q8"}, label, "main",
              {{"WG", c.wg}, {"K_COLS", params.k}, {"BLOCKS", params.blocks}})},
          .buffers = {gpu::Uniform(context, params, "quantize params")}};
}

std::vector<gpu::Dispatch> Record(gpu::Context& context, const Kernel& k,
                                  const QuantizeShape& shape, const QuantizeConfig& c,
                                  const QuantizeBuffers& b) {
  return {OneDispatch(context, k.pipelines[0], {b.x, b.codes, b.scale_sums, k.buffers[0]},
                      gpu::GroupsFor(4 * uint64_t{shape.m} * Q4BlocksOf(shape.k), c.wg))};
}

}  // namespace

const OpKind<QuantizeShape, QuantizeConfig, QuantizeBuffers> kQuantizeQ8{kQuantizeQ8Rules, &Compile,
                                                                         &Record};

}  // namespace refract::ops
