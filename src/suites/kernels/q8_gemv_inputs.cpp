#include "suites/kernels/q8_gemv_inputs.h"

#include "gpu/transfer.h"
#include "reference/random_data.h"

namespace refract::suites::kernels {

Q8GemvInputs MakeQ8GemvInputs(uint32_t k, uint32_t n, uint64_t seed) {
  Q8GemvInputs inputs;
  inputs.matrix = reference::RandomQ4Matrix(k, n, seed);
  inputs.packed = {.n = n, .k = k, .packing = reference::PackMatMulNBits(inputs.matrix)};
  inputs.x = reference::QuantizeQ8(reference::RandomFloats(k, seed + 2));
  inputs.codes = reference::PackQ8Codes(inputs.x.codes);
  for (size_t b = 0; b < inputs.x.scales.size(); ++b) {
    inputs.scale_sums.insert(inputs.scale_sums.end(), {inputs.x.scales[b], inputs.x.sums[b]});
  }
  return inputs;
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

refract::decode::parts::Q8Row UploadActivations(gpu::Context& context, const Q8GemvInputs& inputs) {
  return {.codes = gpu::Upload(context, inputs.codes, gpu::kUsageStorage, "codes"),
          .scale_sums = gpu::Upload(context, inputs.scale_sums, gpu::kUsageStorage, "scale sums")};
}

}  // namespace refract::suites::kernels
