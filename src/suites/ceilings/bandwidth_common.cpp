#include "suites/ceilings/bandwidth_common.h"

#include <cstring>
#include <span>

#include "base/error.h"
#include "kernels/embedded_kernels.h"

namespace refract::suites::ceilings {

namespace {

struct CountParams {
  uint32_t count;
  uint32_t padding[3];  // uniform buffers are bound in 16-byte units
};

}  // namespace

gpu::Buffer MakeCountParams(gpu::Context& context, uint32_t count) {
  gpu::Buffer buffer =
      context.CreateBuffer(sizeof(CountParams), gpu::kUsageUniform | gpu::kUsageCopyDst, "params");
  WriteCountParams(context, buffer, count);
  return buffer;
}

void WriteCountParams(gpu::Context& context, const gpu::Buffer& params, uint32_t count) {
  CountParams values{count, {0, 0, 0}};
  context.WriteBuffer(params, 0, std::as_bytes(std::span(&values, 1)));
}

void FillVec4(gpu::Context& context, const gpu::Buffer& data, uint32_t count) {
  gpu::ComputePipeline fill =
      context.CreateComputePipeline({.wgsl = kernels::KernelSource("ceil_fill_vec4"),
                                     .label = "ceil_fill_vec4",
                                     .constants = {}});
  gpu::Buffer params = MakeCountParams(context, count);
  gpu::Dispatch dispatch{
      fill,
      {context.CreateBindGroup(fill, 0,
                               {{0, gpu::BufferBinding{params}}, {1, gpu::BufferBinding{data}}})},
      kBandwidthWorkgroups};
  context.RunPass(dispatch, 1, false);
}

void FillValue(uint32_t i, float out[4]) {
  uint32_t h = i * 2654435761u;
  constexpr float kScale = 1.0f / 65536.0f;
  out[0] = static_cast<float>(h & 0xffffu) * kScale;
  out[1] = static_cast<float>(h >> 16u) * kScale;
  out[2] = static_cast<float>(i & 1023u) * kScale;
  out[3] = 1.0f * kScale;
}

std::vector<float> ReadFloats(gpu::Context& context, const gpu::Buffer& buffer) {
  std::vector<std::byte> raw = context.ReadBuffer(buffer, 0, buffer.size());
  std::vector<float> values(raw.size() / 4);
  std::memcpy(values.data(), raw.data(), values.size() * 4);
  return values;
}

void MismatchLog::Note(size_t index, double gpu, double cpu) {
  if (mismatches_++ < 3) {
    first_ << (mismatches_ > 1 ? "; " : "") << "element " << index << ": GPU " << gpu << ", CPU "
           << cpu;
  }
}

void MismatchLog::ThrowIfAny(size_t total, const std::string& context) const {
  if (mismatches_ == 0) return;
  throw VerificationError(id_ + ": " + std::to_string(mismatches_) + " of " +
                          std::to_string(total) + " outputs disagree with the CPU model" +
                          (context.empty() ? "" : " (" + context + ")") + ": " + first_.str());
}

}  // namespace refract::suites::ceilings
