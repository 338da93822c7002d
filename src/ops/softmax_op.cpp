#include "ops/op_kinds.h"

#include "gpu/transfer.h"

namespace refract::ops {
namespace {

// The seed's uniform (seed 003 §8), padded to 16 bytes; the tuned kernel's is the same.
struct SoftmaxParams {
  uint32_t rows, row_size, padding[2];
};

gpu::Buffer Params(gpu::Context& context, const SoftmaxShape& shape) {
  return gpu::Uniform(context, SoftmaxParams{shape.rows, shape.row_size, {}}, "softmax params");
}

Kernel BaselineCompile(gpu::Context& context, const SoftmaxShape& shape, const NoConfig&,
                       const std::string& label) {
  return {.pipelines = {CompileKernel(context, {"llm_softmax_baseline"}, label)},
          .buffers = {Params(context, shape)}};
}

Kernel TunedCompile(gpu::Context& context, const SoftmaxShape& shape, const RowConfig& c,
                    const std::string& label) {
  return {.pipelines = {CompileKernel(
              context, {RowReductionPart(c), RowElementPart(shape.row_size), "llm_softmax_tuned"},
              label, "main", RowConstants(c))},
          .buffers = {Params(context, shape)}};
}

// Both kernels: one workgroup a row, bindings input, output, params.
template <typename Config>
std::vector<gpu::Dispatch> Record(gpu::Context& context, const Kernel& k, const SoftmaxShape& shape,
                                  const Config&, const SoftmaxBuffers& b) {
  return {OneDispatch(context, k.pipelines[0], {b.input, b.output, k.buffers[0]}, shape.rows)};
}

}  // namespace

const Family<SoftmaxShape, RowConfig, SoftmaxBuffers> kSoftmaxOps{
    {kSoftmaxRules.baseline, &BaselineCompile, &Record<NoConfig>},
    {kSoftmaxRules.tuned, &TunedCompile, &Record<RowConfig>}};

}  // namespace refract::ops
