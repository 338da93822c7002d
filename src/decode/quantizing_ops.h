// Internal to src/decode/: the decode step's producers of q8 activations — the ops before the q8
// GEMVs (RMSNorm after the residual add, and silu(gate) · up) writing their output as
// int8 blocks of 32 with each block's (d, Σq), as llm_quantize_q8_part.wgsl quantizes
// (decode_quantize_q8.wgsl), so that no quantizer needs a dispatch of its own.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/context.h"
#include "gpu/dispatch_builder.h"
#include "reference/llm_decoder.h"

namespace refract::decode::parts {

/// A row of values as int8 blocks of 32: the codes (32 bytes a block) and each block's (d, Σq).
struct Q8Row {
  gpu::Buffer codes, scale_sums;
};

/// Q8Row of `k` values.
Q8Row MakeQ8Row(gpu::Context& context, uint32_t k, const std::string& label);

/// The residual stream as the q8 step's norms read it: one buffer of kSlots slots of the hidden
/// size (each at the device's storage offset alignment, zeros until written), so that the
/// vectors a norm adds and the sum it writes take one storage binding (WebGPU takes no buffer
/// bound writable and read-only in one dispatch).
class ResidualStream {
 public:
  static constexpr uint32_t kSlots = 4;

  ResidualStream(gpu::Context& context, uint32_t hidden, const std::string& label);

  const gpu::Buffer& buffer() const { return buffer_; }
  /// Slot `slot` (< kSlots) as a binding: hidden f32.
  gpu::BufferSlice Slot(uint32_t slot) const;
  /// The uniform of a fused GEMV that adds slots `a` and `b` and writes the sum to slot `sum`.
  gpu::Buffer Sum(gpu::Context& context, uint32_t a, uint32_t b, uint32_t sum) const;

 private:
  gpu::Buffer buffer_;
  uint32_t hidden_ = 0, slot_floats_ = 0;
};

/// The part that gives decode_add_norm_part.wgsl its workgroup sum, and its constants.
struct NormTotalPart {
  std::string_view name;
  std::map<std::string, double> constants;
};

/// A workgroup of `wg` (a power of two) sums by shuffles over runs of up to 32 invocations where
/// `subgroups` (the kernel's choice) and the device's smallest subgroup holds 4 or more
/// (decode_norm_total_subgroup_part.wgsl), else through workgroup memory.
NormTotalPart NormTotalFor(const DeviceLimits& limits, uint32_t wg, bool subgroups);

/// decode_addend_fixed_part.wgsl's, decode_gate_up_down_store_part.wgsl's and
/// decode_merge_o_heads.wgsl's FIXED_ONE: the down and o projections' fixed point, 1.0 as 2^20
/// (a unit of 9.5e-7, values to ±2048). On lavapipe
/// (2026-12-07) the 2-layer Qwen2.5-0.5B step passed its check at 2^24 and failed it at 2^27
/// (every logit off): its down projection stays within ±128, 16 times inside this range.
inline constexpr double kFixedOne = 1048576.0;

/// Where a norm's residual add takes its second addend from (a decode_addend_*_part.wgsl).
struct SecondAddend {
  enum class From : uint8_t {
    kStream,  ///< the stream's slot b
    kFixed,   ///< a projection in fixed point ([hidden] i32, kFixedOne to 1.0): the down
              ///< projection's (FusedGateUpDown's) or the o projection's (FusedMergeOHeads')
  };
  From from = From::kStream;
};

/// The addend part of `addend` and its constants. The fixed point is bound at 16 and read two
/// vec4 at a time: the kernel's K a multiple of 8 (its host's check).
struct AddendPart {
  std::string_view name;
  std::map<std::string, double> constants;
};
AddendPart AddendPartFor(const SecondAddend& addend);

/// A norm's input (AddNorm's, or a fused GEMV's: fused_gemvs.h): h = the stream's slots a + b
/// (written to slot sum; Sum's uniform), then RMSNorm(h) · weight.
struct NormInput {
  gpu::Buffer stream, sum, weight;
};

class QuantizingOps {
 public:
  /// Compiles the ops for `shape`'s hidden and intermediate sizes (UsageError past a hidden size
  /// of 8192: the norm holds its row in one workgroup), AddNormFixed's too where `fixed_norm`.
  QuantizingOps(gpu::Context& context, const reference::DecoderShape& shape,
                bool fixed_norm = false);

  /// `in`'s h = a + b (written), y = RMSNorm(h) · weight into `out`.
  gpu::Dispatch AddNorm(const NormInput& in, const Q8Row& out) const;
  /// The same with b the down projection in fixed point, `down` ([hidden] i32; SecondAddend's
  /// kFixed; `in`'s slot b unread). UsageError unless compiled with `fixed_norm` at a hidden
  /// size that is a multiple of 8.
  gpu::Dispatch AddNormFixed(const NormInput& in, const gpu::Buffer& down, const Q8Row& out) const;
  /// y = silu(gate) · up into `out`, gate_up holding the gate row, then the up row.
  gpu::Dispatch SiluMul(const gpu::Buffer& gate_up, const Q8Row& out) const;

 private:
  gpu::Context& context_;
  uint32_t hidden_, intermediate_;
  gpu::ComputePipeline add_norm_, add_norm_fixed_, silu_mul_;
  gpu::Buffer hidden_params_, intermediate_params_;
};

}  // namespace refract::decode::parts
