// The decode step's q/k/v projection on q8 activations with its bias,
// RoPE and KV-cache append in the GEMV's epilogue (decode_qkv_rope_store_part.wgsl) — one
// dispatch a layer where the GEMV and decode_rope_kv.wgsl took two. Its weights' rows come in
// RoPE pairs (PairedForRope), so that a row group of the GEMV holds whole pairs. The kernels
// suite's qkv-rope rows time it alone (suites/kernels/qkv_rope_benchmark.h).
#pragma once

#include "decode/decode_engine.h"
#include "decode/quantizing_ops.h"
#include "ops/matmul_rules.h"
#include "reference/llm_decoder.h"

namespace refract::decode {

/// `qkv` ([QkvRows, hidden]: q heads, k heads, v heads, d rows each) with each head's rows
/// reordered into RoPE pairs: row 2j is element i of head slot s, row 2j + 1 element i + d/2
/// (j = s · d/2 + i).
reference::Q4Weight PairedForRope(const reference::Q4Weight& qkv,
                                  const reference::DecoderShape& shape);

class FusedQkv {
 public:
  /// Compiles the q8 GEMV of the model's q/k/v shape at `gemv` with `rows` made even (rows + 1
  /// when odd: a group must hold whole pairs).
  FusedQkv(gpu::Context& context, const reference::DecoderShape& shape, ops::GemvConfig gemv);

  /// The configuration compiled.
  const ops::GemvConfig& config() const { return config_; }

  /// One layer's dispatch: `in` (the normed state, q8) through `paired` (PairedForRope's
  /// weights), `bias` and `inv_freq` (decode_rope_kv.wgsl's), into `q` and the layer's `keys`
  /// and `values` at the position `step` holds.
  gpu::Dispatch Record(const parts::Q8Row& in, const GpuQ4& paired, const gpu::Buffer& bias,
                       const gpu::Buffer& inv_freq, const gpu::Buffer& q, const gpu::Buffer& keys,
                       const gpu::Buffer& values, const gpu::Buffer& step) const;

 private:
  gpu::Context& context_;
  ops::GemvConfig config_;
  uint32_t rows_ = 0;  ///< the GEMV's N: QkvRows
  gpu::ComputePipeline pipeline_;
  gpu::Buffer gemv_params_, rope_shape_;
};

}  // namespace refract::decode
