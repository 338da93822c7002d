#include "ops/op_kinds.h"

#include "gpu/transfer.h"

namespace refract::ops {
namespace {

Kernel Compile(gpu::Context& context, const ScanShape& p, const ScanConfig& c,
               const std::string& label) {
  const double table_floats = c.lut_shared == 1 ? static_cast<double>(ScanTableBytes(p.d) / 4) : 4;
  return {.pipelines = {CompileKernel(context, {"scan_q2"}, label, "main",
                                      {{"WG", c.wg},
                                       {"VPT", c.vpt},
                                       {"D", p.d},
                                       {"LUT_SHARED", c.lut_shared},
                                       {"LUT_FLOATS", table_floats}})},
          .buffers = {gpu::Uniform(context, CountParams{p.vectors, {}}, "scan params")}};
}

std::vector<gpu::Dispatch> Record(gpu::Context& context, const Kernel& k, const ScanShape& p,
                                  const ScanConfig& c, const ScanBuffers& b) {
  return {OneDispatch(context, k.pipelines[0], {b.codes, b.norms, b.lut, b.scores, k.buffers[0]},
                      static_cast<uint32_t>(CeilDiv(p.vectors, uint64_t{c.wg} * c.vpt)))};
}

}  // namespace

const OpKind<ScanShape, ScanConfig, ScanBuffers> kScan{kScanRules, &Compile, &Record};

}  // namespace refract::ops
