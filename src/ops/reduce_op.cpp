#include "ops/op_kinds.h"

#include "gpu/transfer.h"

namespace refract::ops {
namespace {

struct ReduceParams {
  uint32_t count4, groups, padding[2];
};

Kernel Compile(gpu::Context& context, const ReduceShape& p, const ReduceConfig& c,
               const std::string& label) {
  const char* file = c.subgroups == 1 ? "sum_reduce_subgroup" : "sum_reduce";
  const std::map<std::string, double> constants = {{"WG", c.wg}, {"ITEMS", c.items}};
  const auto groups = static_cast<uint32_t>(ReducePartials(c, p));
  return {
      .pipelines = {CompileKernel(context, {file}, label, "partials", constants),
                    CompileKernel(context, {file}, label, "finish", constants)},
      .buffers = {gpu::Uniform(
          context, ReduceParams{static_cast<uint32_t>(p.count / 4), groups, {}}, "sum params")}};
}

std::vector<gpu::Dispatch> Record(gpu::Context& context, const Kernel& k, const ReduceShape& p,
                                  const ReduceConfig& c, const ReduceBuffers& b) {
  const auto groups = static_cast<uint32_t>(ReducePartials(c, p));
  // Each entry point's layout holds only the bindings it uses.
  return {OneDispatch(context, k.pipelines[0], {b.data, b.partials, {}, k.buffers[0]}, groups),
          OneDispatch(context, k.pipelines[1], {{}, b.partials, b.result, k.buffers[0]}, 1)};
}

}  // namespace

const OpKind<ReduceShape, ReduceConfig, ReduceBuffers> kReduce{kReduceRules, &Compile, &Record};

}  // namespace refract::ops
