#include "suites/ceilings/bandwidth_common.h"

#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "kernels/embedded_kernels.h"

namespace refract::suites::ceilings {

void FillVec4(gpu::Context& context, const gpu::Buffer& data, uint32_t count) {
  gpu::ComputePipeline fill = context.CreateComputePipeline(
      {.wgsl = wgsl::KernelSource("ceil_fill_vec4"), .label = "ceil_fill_vec4"});
  gpu::Buffer params = gpu::Uniform(context, CountParams{count});
  context.RunPass(gpu::DispatchBuilder(context, fill)
                      .Buffer(0, params)
                      .Buffer(1, data)
                      .Groups(kBandwidthWorkgroups)
                      .Build(),
                  1, false);
}

}  // namespace refract::suites::ceilings
