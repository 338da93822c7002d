#include "suites/smoke.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "base/error.h"
#include "kernels/embedded_kernels.h"

namespace refract::suites {
namespace {

constexpr uint32_t kWorkgroupSize = 256;  // matches smoke_scale_add.wgsl
constexpr uint32_t kMaxGroupsPerDimension = 65535;

struct SmokeParams {
  uint32_t count;
  float scale;
  float offset;
  uint32_t padding;
};

template <typename T>
std::span<const std::byte> Bytes(const std::vector<T>& values) {
  return std::as_bytes(std::span<const T>(values));
}

}  // namespace

SmokeResult RunSmoke(gpu::Context& context, uint32_t elements) {
  REFRACT_THROW_IF(elements == 0, UsageError, "the smoke test needs at least one element");
  const SmokeParams params{elements, 1.5f, -0.25f, 0};
  std::vector<float> input(elements);
  for (uint32_t i = 0; i < elements; ++i) input[i] = static_cast<float>(i % 1000) * 0.001f;

  gpu::ComputePipeline pipeline = context.CreateComputePipeline(
      {.wgsl = kernels::KernelSource("smoke_scale_add"), .label = "smoke_scale_add"});
  gpu::Buffer params_buffer =
      context.CreateBuffer(sizeof(SmokeParams), gpu::kUsageUniform | gpu::kUsageCopyDst, "params");
  gpu::Buffer input_buffer = context.CreateBuffer(
      uint64_t{elements} * 4, gpu::kUsageStorage | gpu::kUsageCopyDst, "smoke input");
  gpu::Buffer output_buffer = context.CreateBuffer(
      uint64_t{elements} * 4, gpu::kUsageStorage | gpu::kUsageCopySrc, "smoke output");
  context.WriteBuffer(params_buffer, 0, std::as_bytes(std::span(&params, 1)));
  context.WriteBuffer(input_buffer, 0, Bytes(input));

  gpu::Dispatch dispatch;
  dispatch.pipeline = pipeline;
  dispatch.bind_groups = {context.CreateBindGroup(pipeline, 0,
                                                  {{0, gpu::BufferBinding{params_buffer}},
                                                   {1, gpu::BufferBinding{input_buffer}},
                                                   {2, gpu::BufferBinding{output_buffer}}})};
  uint32_t groups = (elements + kWorkgroupSize - 1) / kWorkgroupSize;
  dispatch.groups_x = std::min(groups, kMaxGroupsPerDimension);
  dispatch.groups_y = (groups + dispatch.groups_x - 1) / dispatch.groups_x;

  // Verify first: a fast wrong kernel is never timed.
  context.RunPass(dispatch, 1, /*timestamps=*/false);
  std::vector<std::byte> raw = context.ReadBuffer(output_buffer, 0, uint64_t{elements} * 4);
  std::vector<float> output(elements);
  std::memcpy(output.data(), raw.data(), raw.size());
  SmokeResult result;
  result.elements = elements;
  for (uint32_t i = 0; i < elements; ++i) {
    float expected = input[i] * params.scale + params.offset;
    double error = std::fabs(double{output[i]} - double{expected});
    result.max_abs_error = std::max(result.max_abs_error, error);
    if (!(error <= 1e-6 * std::max(1.0, std::fabs(double{expected})))) {
      throw VerificationError("smoke kernel: element " + std::to_string(i) + " is " +
                              std::to_string(output[i]) + ", the CPU gives " +
                              std::to_string(expected));
    }
  }

  gpu::PassTiming timing = context.RunPass(dispatch, 1, /*timestamps=*/true);
  result.wall_ms = timing.wall_ns * 1e-6;
  result.gpu_ms = timing.gpu_ns.value_or(0.0) * 1e-6;
  REFRACT_THROW_IF(!(result.wall_ms > 0) || (timing.gpu_ns && !(result.gpu_ms > 0)), GpuError,
                   "the smoke pass read a time <= 0: the pass likely did no work");
  return result;
}

}  // namespace refract::suites
