// What the kernels suite's rows of the decode step's fused q8 GEMVs (qkv-rope, gate-up-silu)
// share: their inputs — a random q4 matrix, one row of activations quantized to int8 — and the
// check that the device and the q8 GEMV's rules take the configuration.
#pragma once

#include <cstdint>
#include <vector>

#include "base/device_limits.h"
#include "decode/quantizing_ops.h"
#include "gpu/context.h"
#include "ops/axis.h"
#include "ops/matmul_rules.h"
#include "ops/op_support.h"
#include "reference/llm_decoder.h"
#include "reference/llm_q8.h"

namespace refract::suites::kernels {

struct Q8GemvInputs {
  reference::Q4Matrix matrix;      ///< W [N, K], the model's
  reference::Q4Weight packed;      ///< its MatMulNBits packing
  reference::Q8Activations x;      ///< one row of K activations, quantized
  std::vector<uint32_t> codes;     ///< x's codes as the GEMV reads them (PackQ8Codes)
  std::vector<float> scale_sums;   ///< x's (d, Σq) a block
};

/// N × K weights and K activations in [-1, 1), from `seed`.
Q8GemvInputs MakeQ8GemvInputs(uint32_t k, uint32_t n, uint64_t seed);

/// The q8 GEMV of one row, N × K.
ops::MatmulShape Q8GemvShape(uint32_t k, uint32_t n);

/// Why the device cannot run the q8 GEMV of N × K at `settings` (over its default rule): no
/// dot4I8Packed, or what the rules' check refuses.
ops::Refusal Q8GemvRefusal(uint32_t k, uint32_t n, const DeviceLimits& limits,
                           const ops::Settings& settings);

/// `inputs`' activations on the GPU, as a q8 GEMV binds them.
refract::decode::parts::Q8Row UploadActivations(gpu::Context& context, const Q8GemvInputs& inputs);

}  // namespace refract::suites::kernels
