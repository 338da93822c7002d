#include "ops/op_kinds.h"

#include "gpu/transfer.h"

namespace refract::ops {
namespace {

// Either variant: the kernel file's entry point named by the kind, bindings a, b, output, params.
Kernel Compile(gpu::Context& context, const BinaryShape& p, const char* file,
               std::map<std::string, double> constants, const std::string& label) {
  return {.pipelines = {CompileKernel(context, {file}, label, BinaryKindName(p.kind),
                                      std::move(constants))},
          .buffers = {gpu::Uniform(context, CountParams{static_cast<uint32_t>(p.count), {}},
                                   "binary params")}};
}

Kernel BaselineCompile(gpu::Context& context, const BinaryShape& p, const NoConfig&,
                       const std::string& label) {
  return Compile(context, p, "llm_add_mul_baseline", {}, label);
}

Kernel TunedCompile(gpu::Context& context, const BinaryShape& p, const BinaryConfig& c,
                    const std::string& label) {
  return Compile(context, p, "llm_add_mul_tuned", {{"WG", c.wg}, {"VPT", c.vpt}}, label);
}

std::vector<gpu::Dispatch> BaselineRecord(gpu::Context& context, const Kernel& k,
                                          const BinaryShape& p, const NoConfig&,
                                          const BinaryBuffers& b) {
  return {OneDispatch(context, k.pipelines[0], {b.a, b.b, b.output, k.buffers[0]},
                      gpu::GroupsFor(p.count, 256))};
}

std::vector<gpu::Dispatch> TunedRecord(gpu::Context& context, const Kernel& k,
                                       const BinaryShape& p, const BinaryConfig& c,
                                       const BinaryBuffers& b) {
  return {OneDispatch(context, k.pipelines[0], {b.a, b.b, b.output, k.buffers[0]},
                      gpu::GroupsFor(CeilDiv(p.count, 4), c.wg * c.vpt))};
}

}  // namespace

const Family<BinaryShape, BinaryConfig, BinaryBuffers> kBinaryOps{
    {kBinaryRules.baseline, &BaselineCompile, &BaselineRecord},
    {kBinaryRules.tuned, &TunedCompile, &TunedRecord}};

}  // namespace refract::ops
