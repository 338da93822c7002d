#include "ops/op_kinds.h"

#include "gpu/transfer.h"

namespace refract::ops {
namespace {

struct MatmulF16Params {
  uint32_t m, n, k, padding;
};

Kernel Compile(gpu::Context& context, const MatmulDims& d, const MatmulF16Config& c,
               const std::string& label) {
  return {.pipelines = {CompileKernel(context, {"matmul_f16_tiled"}, label, "main",
                                      {{"BM", c.bm},
                                       {"BN", c.bn},
                                       {"BK", c.bk},
                                       {"TM", c.tm},
                                       {"TN", c.tn},
                                       {"ACC_F16", c.acc_f16}})},
          .buffers = {gpu::Uniform(context, MatmulF16Params{d.m, d.n, d.k, 0}, "f16 params")}};
}

std::vector<gpu::Dispatch> Record(gpu::Context& context, const Kernel& k, const MatmulDims& d,
                                  const MatmulF16Config& c, const MatmulF16Buffers& b) {
  return {OneDispatch(context, k.pipelines[0], {b.a, b.b, b.c, k.buffers[0]},
                      static_cast<uint32_t>(CeilDiv(d.n, c.bn)),
                      static_cast<uint32_t>(CeilDiv(d.m, c.bm)))};
}

}  // namespace

const OpKind<MatmulDims, MatmulF16Config, MatmulF16Buffers> kMatmulF16{kMatmulF16Rules, &Compile,
                                                                       &Record};

}  // namespace refract::ops
