#include "suites/kernels/q8_gemv_inputs.h"

#include <span>

#include "gpu/transfer.h"
#include "reference/random_data.h"

namespace refract::suites::kernels {

Q8GemvInputs MakeQ8GemvInputs(uint32_t k, uint32_t n, float eps, uint64_t seed) {
  Q8GemvInputs inputs;
  inputs.matrix = reference::RandomQ4Matrix(k, n, seed);
  inputs.packed = {.n = n, .k = k, .packing = reference::PackMatMulNBits(inputs.matrix)};
  inputs.a = reference::RandomFloats(k, seed + 2);
  inputs.b = reference::RandomFloats(k, seed + 3);
  inputs.weight = reference::RandomFloats(k, seed + 4, 0.5f, 1.5f);
  inputs.normed = reference::AddRmsNorm({.rows = 1, .hidden = k, .eps = eps}, inputs.a, inputs.b,
                                        inputs.weight);
  inputs.x = reference::QuantizeQ8(inputs.normed.y);
  return inputs;
}

GpuResidual UploadResidual(gpu::Context& context, const Q8GemvInputs& inputs) {
  GpuResidual residual{
      .stream = refract::decode::parts::ResidualStream(
          context, static_cast<uint32_t>(inputs.a.size()), "residual"),
      .sum = {},
      .weight = gpu::Upload(context, inputs.weight, gpu::kUsageStorage, "norm weight")};
  for (uint32_t slot : {0u, 1u}) {
    const std::vector<float>& addend = slot == 0 ? inputs.a : inputs.b;
    context.WriteBuffer(residual.stream.buffer(), residual.stream.Slot(slot).offset,
                        std::as_bytes(std::span<const float>(addend)));
  }
  residual.sum = residual.stream.Sum(context, 0, 1, GpuResidual::kSumSlot);
  return residual;
}

std::vector<gpu::Dispatch> AddNormThenGemv(
    gpu::Context& context, const refract::decode::parts::QuantizingOps& quantizing,
    const ops::Op<ops::MatmulShape, ops::GemvConfig, ops::MatmulBuffers>& gemv,
    const GpuResidual& residual, const refract::decode::GpuQ4& w, const gpu::Buffer& out) {
  const refract::decode::parts::Q8Row in = refract::decode::parts::MakeQ8Row(
      context, static_cast<uint32_t>(residual.stream.Slot(0).size / 4), "normed");
  std::vector<gpu::Dispatch> dispatches = {quantizing.AddNorm(residual.Input(), in)};
  for (gpu::Dispatch& d : gemv.Record(context, {.a = in.codes,
                                               .w = w.codes,
                                               .scales = w.scales,
                                               .zeros = {},
                                               .c = out,
                                               .a_scales = in.scale_sums})) {
    dispatches.push_back(std::move(d));
  }
  return dispatches;
}

std::optional<std::string> SumMismatch(gpu::Context& context, const GpuResidual& residual,
                                       const Q8GemvInputs& inputs) {
  const gpu::BufferSlice slot = residual.stream.Slot(GpuResidual::kSumSlot);
  const std::vector<float> all = gpu::Download<float>(context, residual.stream.buffer());
  const size_t first = slot.offset / 4;
  for (size_t i = 0; i < inputs.normed.h.size(); ++i) {
    if (first + i >= all.size() || all[first + i] != inputs.normed.h[i]) {
      return "the residual's sum h[" + std::to_string(i) + "] is " +
             (first + i < all.size() ? std::to_string(all[first + i]) : std::string("missing")) +
             ", not a + b = " + std::to_string(inputs.normed.h[i]);
    }
  }
  return std::nullopt;
}

ops::MatmulShape Q8GemvShape(uint32_t k, uint32_t n) {
  return {.weights = ops::Weights::kQ4, .dims = {.m = 1, .k = k, .n = n}};
}

ops::Refusal Q8GemvRefusal(uint32_t k, uint32_t n, const DeviceLimits& limits,
                           const ops::Settings& settings) {
  if (!limits.packed_4x8_dot) {
    return std::string("needs dot4I8Packed (packed_4x8_integer_dot_product)");
  }
  const ops::MatmulShape shape = Q8GemvShape(k, n);
  return ops::kGemvQ8Rules.Check(ops::kGemvQ8Rules.Resolve(shape, limits, settings), shape, limits);
}

}  // namespace refract::suites::kernels
