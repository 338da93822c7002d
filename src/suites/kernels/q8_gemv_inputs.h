// What the kernels suite's rows of the decode step's fused q8 GEMVs (qkv-rope, gate-up-silu)
// share: their inputs — a random q4 matrix, the residual's two addends and the norm's weight,
// and the CPU model's normed row of their sum quantized to int8 — the residual stream as the
// GPU holds them, and the check that the device and the q8 GEMV's rules take the configuration.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/device_limits.h"
#include "decode/fused_gemvs.h"
#include "gpu/context.h"
#include "ops/axis.h"
#include "ops/matmul_rules.h"
#include "ops/op.h"
#include "ops/op_kinds.h"
#include "ops/op_support.h"
#include "reference/llm_decoder.h"
#include "reference/llm_norm.h"
#include "reference/llm_q8.h"

namespace refract::suites::kernels {

struct Q8GemvInputs {
  reference::Q4Matrix matrix;          ///< W [N, K], the model's
  reference::Q4Weight packed;          ///< its MatMulNBits packing
  std::vector<float> a, b;             ///< the residual's addends, K each
  std::vector<float> weight;           ///< the norm's weight, K
  reference::AddRmsNormResult normed;  ///< h = a + b, y = RMSNorm(h) · weight (eps: the model's)
  reference::Q8Activations x;          ///< y quantized: what the GEMV multiplies
};

/// N × K weights, addends in [-1, 1), a weight in [0.5, 1.5), from `seed`; the norm at `eps`.
Q8GemvInputs MakeQ8GemvInputs(uint32_t k, uint32_t n, float eps, uint64_t seed);

/// `inputs`' addends on the GPU as the fused GEMVs read them: slots 0 and 1 of a residual stream,
/// with the uniform that adds them into slot 2 (kSumSlot), and the norm's weight.
struct GpuResidual {
  static constexpr uint32_t kSumSlot = 2;
  refract::decode::parts::ResidualStream stream;
  gpu::Buffer sum, weight;

  refract::decode::parts::NormInput Input() const {
    return {.stream = stream.buffer(), .sum = sum, .weight = weight};
  }
};
GpuResidual UploadResidual(gpu::Context& context, const Q8GemvInputs& inputs);

/// The unfused chain's first two dispatches: `residual`'s add-norm quantized into a row of its
/// own, then `gemv` on that row through `w` into `out`.
std::vector<gpu::Dispatch> AddNormThenGemv(
    gpu::Context& context, const refract::decode::parts::QuantizingOps& quantizing,
    const ops::Op<ops::MatmulShape, ops::GemvConfig, ops::MatmulBuffers>& gemv,
    const GpuResidual& residual, const refract::decode::GpuQ4& w, const gpu::Buffer& out);

/// Where a row's GPU h (slot kSumSlot of its stream) differs from a + b, the CPU model's f32 sum
/// (exact: the GPU adds the same two floats); nothing when it matches.
std::optional<std::string> SumMismatch(gpu::Context& context, const GpuResidual& residual,
                                       const Q8GemvInputs& inputs);

/// The q8 GEMV of one row, N × K.
ops::MatmulShape Q8GemvShape(uint32_t k, uint32_t n);

/// Why the device cannot run the q8 GEMV of N × K at `settings` (over its default rule): no
/// dot4I8Packed, or what the rules' check refuses.
ops::Refusal Q8GemvRefusal(uint32_t k, uint32_t n, const DeviceLimits& limits,
                           const ops::Settings& settings);

}  // namespace refract::suites::kernels
