#include "suites/smoke/smoke_benchmark.h"

#include "base/error.h"
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "kernels/embedded_kernels.h"
#include "reference/compare.h"
#include "reference/technique_models.h"

namespace refract::suites::smoke {
namespace {

constexpr uint32_t kWorkgroupSize = 256;  // smoke_scale_add.wgsl's @workgroup_size
constexpr float kScale = 1.5f;
constexpr float kOffset = -0.25f;

struct SmokeParams {
  uint32_t count;
  float scale;
  float offset;
  uint32_t padding;
};

}  // namespace

SmokeBenchmark::SmokeBenchmark(uint32_t elements, std::string id) : elements_(elements) {
  REFRACT_THROW_IF(elements == 0, UsageError, "the smoke test needs at least one element");
  info_ = {.id = std::move(id),
           .category = "bandwidth",
           .unit = "B/s",
           .description = "out = in x 1.5 - 0.25 over f32 elements; bytes = elements x 8",
           .params = {{"elements", elements}}};
}

std::optional<std::string> SmokeBenchmark::MissingRequirement(const gpu::Context& context) const {
  if (uint64_t{elements_} * 4 > context.limits().max_storage_buffer_binding_size) {
    return "needs a storage binding of " + std::to_string(uint64_t{elements_} * 4) +
           " bytes, above the device's limit";
  }
  return std::nullopt;
}

void SmokeBenchmark::Prepare(gpu::Context& context) {
  gpu::ComputePipeline pipeline = context.CreateComputePipeline(
      {.wgsl = wgsl::KernelSource("smoke_scale_add"), .label = info_.id});
  input_ = reference::ScaleAddInput(elements_);
  gpu::Buffer input = gpu::Upload(context, input_, gpu::kUsageStorage, "smoke input");
  output_ = context.CreateBuffer(uint64_t{elements_} * 4, gpu::kUsageStorage | gpu::kUsageCopySrc,
                                 "smoke output");
  dispatch_ = gpu::DispatchBuilder(context, pipeline)
                  .Buffer(0, gpu::Uniform(context, SmokeParams{elements_, kScale, kOffset, 0}))
                  .Buffer(1, input)
                  .Buffer(2, output_)
                  .Groups(gpu::GroupsFor(elements_, kWorkgroupSize))
                  .Build();
}

VerificationRecord SmokeBenchmark::Verify(gpu::Context& context) {
  REFRACT_THROW_IF(!output_, Error, info_.id + ": Verify before Prepare");
  context.RunPass(dispatch_, 1, false);
  return reference::Compare(info_.id, gpu::Download<float>(context, output_),
                            reference::ScaleAddModel(input_, kScale, kOffset),
                            Tolerance{.absolute = 1e-6, .relative = 1e-6});
}

void SmokeBenchmark::Release() {
  dispatch_ = {};
  output_ = {};
  input_.clear();
}

}  // namespace refract::suites::smoke
