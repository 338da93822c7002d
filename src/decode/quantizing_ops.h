// Internal to src/decode/: the decode step's producers of q8 activations — the ops before the q8
// GEMVs (RMSNorm, with or without the residual add, and silu(gate) · up) writing their output as
// int8 blocks of 32 with each block's (d, Σq), as llm_quantize_q8_part.wgsl quantizes
// (decode_quantize_q8.wgsl), so that no quantizer needs a dispatch of its own.
#pragma once

#include <cstdint>
#include <string>

#include "gpu/context.h"
#include "reference/llm_decoder.h"

namespace refract::decode::parts {

/// A row of values as int8 blocks of 32: the codes (32 bytes a block) and each block's (d, Σq).
struct Q8Row {
  gpu::Buffer codes, scale_sums;
};

/// Q8Row of `k` values.
Q8Row MakeQ8Row(gpu::Context& context, uint32_t k, const std::string& label);

class QuantizingOps {
 public:
  /// Compiles the ops for `shape`'s hidden and intermediate sizes (UsageError past a hidden size
  /// of 8192: the norm holds its row in one workgroup).
  QuantizingOps(gpu::Context& context, const reference::DecoderShape& shape);

  /// y = RMSNorm(a) · weight into `out`; the kernel binds a scratch `h` it does not write.
  gpu::Dispatch Norm(const gpu::Buffer& a, const gpu::Buffer& weight, const gpu::Buffer& h,
                     const Q8Row& out) const;
  /// h = a + b (written; another buffer than a and b), y = RMSNorm(h) · weight into `out`.
  gpu::Dispatch AddNorm(const gpu::Buffer& a, const gpu::Buffer& b, const gpu::Buffer& h,
                        const gpu::Buffer& weight, const Q8Row& out) const;
  /// y = silu(gate) · up into `out`, gate_up holding the gate row, then the up row.
  gpu::Dispatch SiluMul(const gpu::Buffer& gate_up, const Q8Row& out) const;

 private:
  gpu::Context& context_;
  uint32_t hidden_, intermediate_;
  gpu::ComputePipeline norm_, add_norm_, silu_mul_;
  gpu::Buffer hidden_params_, intermediate_params_;
};

}  // namespace refract::decode::parts
