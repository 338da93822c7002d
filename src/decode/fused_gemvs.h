// The decode step's GEMVs on q8 activations that begin with the op before them and end in the op
// after them, one dispatch a layer each where the first design took three: each workgroup adds
// the residual, normalizes and quantizes the row itself (decode_gemv_norm_input_part.wgsl, what
// decode_quantize_q8.wgsl's norm did in a dispatch of its own), then the q/k/v GEMV ends in its
// bias, RoPE and KV-cache append (decode_qkv_rope_store_part.wgsl) and the gate/up GEMV in
// silu(gate) · up and the int8 quantizer of the result (decode_gate_up_silu_store_part.wgsl).
// Each is the q8 GEMV (llm_matmul_q4_tuned_gemv_q8.wgsl) with that input part and another store
// part, on weights whose rows come in the pairs its epilogue joins (PairedForRope,
// PairedGateUp). The kernels suite's qkv-rope and gate-up-silu rows time each alone
// (suites/kernels/qkv_rope_benchmark.h, gate_up_silu_benchmark.h). The LM head, on the plain q8
// input, ends in the argmax's first stage (decode_head_argmax_store_part.wgsl); decode attention's
// merge runs with the o projection a group of heads a workgroup row (decode_merge_o_heads.wgsl),
// whose shares it adds up in fixed point for the gate/up GEMV's input
// (decode_addend_fixed_part.wgsl), or, as an option, at the start of the o projection's f32 q4
// GEMV (decode_gemv_merge_input_part.wgsl). As an
// option, the gate/up GEMV ends in the down projection itself (FusedGateUpDown), added up in
// fixed point for the next q/k/v GEMV's input (decode_addend_fixed_part.wgsl).
#pragma once

#include <optional>
#include <string>

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

/// `gate_up` ([2 · intermediate, hidden]: gate rows, then up rows) interleaved: row 2j is gate
/// row j, row 2j + 1 up row j.
reference::Q4Weight PairedGateUp(const reference::Q4Weight& gate_up);

/// `weight` ([N, K]) a column of blocks at a time, as decode_merge_o_heads.wgsl reads o: a weight
/// of one block a row (K = 32), block b of row n at row b · N + n.
reference::Q4Weight ByBlockColumns(const reference::Q4Weight& weight);

class FusedQkv {
 public:
  /// `gemv` with `rows` made even (rows + 1 when odd: a group must hold whole pairs), or nothing
  /// when the q8 GEMV's rules refuse that on a device of `limits` or the fused kernel does not
  /// fit it (its storage bindings, workgroup memory, the input's groups a workgroup makes; then
  /// the step keeps the norm, the GEMV and rope-kv apart).
  /// With `fixed_down`, the residual's second addend is the down projection in fixed point
  /// (FusedGateUpDown's), not the stream's slot b.
  static std::optional<ops::GemvConfig> ConfigFor(ops::GemvConfig gemv,
                                                  const reference::DecoderShape& shape,
                                                  const DeviceLimits& limits,
                                                  bool fixed_down = false);

  /// Compiles the q8 GEMV of the model's q/k/v shape at `config` (ConfigFor's, with the same
  /// `fixed_down`).
  FusedQkv(gpu::Context& context, const reference::DecoderShape& shape,
           const ops::GemvConfig& config, bool fixed_down = false);

  /// The configuration compiled.
  const ops::GemvConfig& config() const { return config_; }

  /// One layer's dispatch: `in` (the residual's sum, normed with the layer's input norm) through
  /// `paired` (PairedForRope's weights), `bias` and `inv_freq` (decode_rope_kv.wgsl's), into `q`
  /// and the layer's `keys` and `values` at the position `step` holds. Compiled with
  /// `fixed_down`, the second addend is `down` ([hidden] i32; `in`'s slot b unread).
  gpu::Dispatch Record(const parts::NormInput& in, const GpuQ4& paired, const gpu::Buffer& bias,
                       const gpu::Buffer& inv_freq, const gpu::Buffer& q, const gpu::Buffer& keys,
                       const gpu::Buffer& values, const gpu::Buffer& step,
                       const gpu::Buffer& down = {}) const;

 private:
  gpu::Context& context_;
  ops::GemvConfig config_;
  uint32_t rows_ = 0;  ///< the GEMV's N: QkvRows
  gpu::ComputePipeline pipeline_;
  gpu::Buffer gemv_params_, rope_shape_;
};

class FusedGateUp {
 public:
  /// The configuration it starts from before ConfigFor: the q8 GEMV's rules at the gate/up shape
  /// with `settings`, but on a GPU, at a hidden size of 64 blocks or fewer, for the axes
  /// `settings` leaves, 8 invocations a row, 4 blocks a trip and workgroups of 512 (or the
  /// device's most, if fewer): half the workgroups of the plain GEMV's default, each making the
  /// input once for twice the rows.
  static ops::GemvConfig Resolve(const reference::DecoderShape& shape, const DeviceLimits& limits,
                                 const ops::Settings& settings);

  /// `gemv` with its rows raised so that a workgroup holds whole q8 blocks of the output (its
  /// (wg / tpr) · rows a multiple of 64: 32 gate/up pairs), or nothing when no even rows up to
  /// the GEMV's 8 does, the q8 GEMV's rules refuse it on a device of `limits` or the fused kernel
  /// does not fit it (then the step keeps the norm, the GEMV and silu-mul apart).
  /// With `o_sum`, the residual's second addend is the o projection in fixed point
  /// (FusedMergeOHeads' sum), not read from the stream.
  static std::optional<ops::GemvConfig> ConfigFor(ops::GemvConfig gemv,
                                                  const reference::DecoderShape& shape,
                                                  const DeviceLimits& limits, bool o_sum = false);

  /// Compiles the q8 GEMV of the model's gate/up shape at `config` (ConfigFor's, with the same
  /// `o_sum`).
  FusedGateUp(gpu::Context& context, const reference::DecoderShape& shape,
              const ops::GemvConfig& config, bool o_sum = false);

  /// The configuration compiled.
  const ops::GemvConfig& config() const { return config_; }

  /// One layer's dispatch: `in` (the residual's sum, normed with the post-attention norm) through
  /// `paired` (PairedGateUp's weights) into `out`, silu(gate) · up as int8 blocks, what the down
  /// GEMV reads. Compiled with o_sum, the residual's second addend is `o_sum` ([hidden] i32,
  /// parts::kFixedOne to 1.0; `in`'s slot b unread).
  gpu::Dispatch Record(const parts::NormInput& in, const GpuQ4& paired, const parts::Q8Row& out,
                       const gpu::Buffer& o_sum = {}) const;

 private:
  gpu::Context& context_;
  ops::GemvConfig config_;
  uint32_t rows_ = 0;  ///< the GEMV's N: 2 · intermediate
  gpu::ComputePipeline pipeline_;
  gpu::Buffer gemv_params_;
};

/// The gate/up GEMV that ends in the down projection (decode_gate_up_down_store_part.wgsl): each
/// workgroup keeps its silu(gate) · up blocks in workgroup memory, multiplies them by the down
/// weights' columns of those blocks and adds its share of every row, in fixed point, to one
/// vector of i32 with integer atomics (the sum does not depend on the workgroups' order); the
/// next layer's q/k/v GEMV (FusedQkv with fixed_down) or the final norm
/// (QuantizingOps::AddNormFixed) reads it. The down GEMV takes no dispatch of its own.
class FusedGateUpDown {
 public:
  /// `gemv` (a q8 GEMV configuration) fitted as FusedGateUp::ConfigFor fits it, where the
  /// kernel takes that: at most 4 output blocks a workgroup, the gate/up rows whole
  /// workgroups, a hidden size that is a multiple of 8, the device's storage bindings and
  /// workgroup memory; else nothing (the step keeps the down GEMV). `o_sum` as FusedGateUp's.
  static std::optional<ops::GemvConfig> ConfigFor(const ops::GemvConfig& gemv,
                                                  const reference::DecoderShape& shape,
                                                  const DeviceLimits& limits, bool o_sum = false);

  /// Compiles the kernel for the model's shapes at `config` (ConfigFor's, with the same
  /// `o_sum`).
  FusedGateUpDown(gpu::Context& context, const reference::DecoderShape& shape,
                  const ops::GemvConfig& config, bool o_sum = false);

  /// One layer's dispatch: `in` (the residual's sum, normed with the post-attention norm) through
  /// `paired` (PairedGateUp's weights), silu · up and `down_columns` (ByBlockColumns' down),
  /// added into `down_sum` ([hidden] i32, 0 when it starts); `clear` ([hidden] i32, never
  /// `down_sum`) set to 0: a vector that no dispatch reads before the next one adds into it
  /// (the engine's: the layer before's). `o_sum`, where compiled with it.
  gpu::Dispatch Record(const parts::NormInput& in, const GpuQ4& paired,
                       const GpuQ4& down_columns, const gpu::Buffer& down_sum,
                       const gpu::Buffer& clear, const gpu::Buffer& o_sum = {}) const;

  /// The configuration compiled.
  const ops::GemvConfig& config() const { return config_; }

 private:
  gpu::Context& context_;
  ops::GemvConfig config_;
  uint32_t workgroups_ = 0;
  gpu::ComputePipeline pipeline_;
  gpu::Buffer gemv_params_;
};

/// The LM head that ends in the argmax's first stage: the q8 GEMV of [vocab, hidden] writes the
/// logits and each workgroup's best (value, index) (decode_head_argmax_store_part.wgsl), which
/// decode_argmax.wgsl's `pick` reduces.
class FusedHeadArgmax {
 public:
  /// `gemv` (the LM head's q8 configuration) in workgroups of 256 invocations at least (fewer
  /// partials), or nothing when the q8 GEMV's rules refuse that on a device of `limits` or the
  /// fused kernel does not fit it (its storage bindings, its workgroup memory, its workgroups in
  /// one dimension of the grid; then the step keeps the argmax's own first stage).
  static std::optional<ops::GemvConfig> ConfigFor(ops::GemvConfig gemv,
                                                  const reference::DecoderShape& shape,
                                                  const DeviceLimits& limits);

  /// Compiles the q8 GEMV of the model's LM head at `config` (ConfigFor's).
  FusedHeadArgmax(gpu::Context& context, const reference::DecoderShape& shape,
                  const ops::GemvConfig& config);

  /// The partials it writes: one a workgroup.
  uint32_t partials() const { return workgroups_; }
  /// The logits a partial covers: partial g the best of [g · this, (g + 1) · this).
  uint32_t logits_a_partial() const { return logits_a_partial_; }

  /// The step's dispatch: `in` (the final norm's output) through `head` into `logits`, the
  /// workgroups' bests into `partials` (partials() of 8 bytes).
  gpu::Dispatch Record(const parts::Q8Row& in, const GpuQ4& head, const gpu::Buffer& logits,
                       const gpu::Buffer& partials) const;

 private:
  gpu::Context& context_;
  uint32_t workgroups_ = 0, logits_a_partial_ = 0;
  gpu::ComputePipeline pipeline_;
  gpu::Buffer gemv_params_;
};

/// The lanes of decode_merge_pair_part.wgsl's clusters: the power of two, up to the
/// device's smallest subgroup (1 without subgroups) and 32, that leaves a lane of a workgroup of
/// `wg` the fewest rounds of loads (8 loads in flight a round) to merge `pairs` (head, column)
/// pairs of `splits` splits each; the fewest lanes of those that tie.
uint32_t MergeLanesFor(uint32_t pairs, uint32_t splits, uint32_t wg, const DeviceLimits& limits);

/// The o projection that merges its own input: every workgroup combines decode attention's split
/// partials into the f32 q4 GEMV's staged x (decode_gemv_merge_input_part.wgsl), then multiplies,
/// so that attention's merge takes no dispatch of its own.
class FusedMergeO {
 public:
  /// `gemv` (the o GEMV's f32 configuration) in the largest workgroup the device takes up to 1024
  /// invocations (each a few of the merge's loads), or nothing when the GEMV's rules refuse that
  /// on a device of `limits` or attention's output (heads · head_dim) is past one staged chunk
  /// of x (2048 values; then the step keeps attention's merge).
  static std::optional<ops::GemvConfig> ConfigFor(ops::GemvConfig gemv,
                                                  const reference::DecoderShape& shape,
                                                  const DeviceLimits& limits);

  /// Compiles the GEMV of the model's o shape at `config` (ConfigFor's), merging partials of
  /// `splits` splits a KV head.
  FusedMergeO(gpu::Context& context, const reference::DecoderShape& shape, uint32_t splits,
              const ops::GemvConfig& config);

  /// One layer's dispatch: the split's partials `part_o` and `part_ml` (llm_attention_decode's
  /// layout) merged, through `o`, into `out`.
  gpu::Dispatch Record(const gpu::Buffer& part_o, const gpu::Buffer& part_ml, const GpuQ4& o,
                       const gpu::BufferSlice& out) const;

 private:
  gpu::Context& context_;
  uint32_t workgroups_ = 0;
  gpu::ComputePipeline pipeline_;
  gpu::Buffer gemv_params_;
};

/// Attention's merge and the o projection a group of heads at a time (decode_merge_o_heads.wgsl):
/// workgroup (chunk, group) merges its heads' split partials and multiplies them by o's columns
/// of those heads for a chunk of rows, adding the group's share of the o projection into one
/// vector in fixed point with integer atomics (parts::kFixedOne to 1.0; the sum does not depend on
/// the workgroups' order), which the gate/up GEMV's input reads (FusedGateUp with o_sum). One
/// dispatch where the merge and the o GEMV took two, each head merged by its chunks' workgroups
/// only (FusedMergeO merges every head in every workgroup).
class FusedMergeOHeads {
 public:
  struct Config {
    uint32_t wg = 128;   ///< invocations a workgroup
    uint32_t rows = 1;   ///< rows an invocation
    uint32_t heads = 1;  ///< query heads a group (a workgroup's)
  };

  /// The configuration for the model on a device of `limits`: the fewest heads a group (a
  /// divisor of the heads whose columns are whole blocks of 32, at most 8 blocks; a head of 64
  /// values: one); workgroups of 128 (or the device's most), a row an invocation, or 2 or 4 where
  /// that keeps a group's chunks at 8 or fewer (each chunk merges the group again; on the H100,
  /// Qwen2.5-0.5B's step with 4 chunks, or 14 or 28 of 64 or 32 invocations, ran 1-5 % slower
  /// than with 7 of 128: archive/h100-o-heads-0909-*, -0952-*); nothing where
  /// the kernel cannot take the model (no group of whole blocks, a hidden size no multiple of 8)
  /// or the device its bindings.
  static std::optional<Config> ConfigFor(const reference::DecoderShape& shape,
                                         const DeviceLimits& limits);

  /// Whether the step a GPU runs by default is measured faster with it than with attention's
  /// merge in a dispatch of its own: where the shares take at most 64 KiB. The line was drawn
  /// while every gate/up workgroup read and summed the shares: on the H100 (2026-12-06,
  /// archive/h100-o-heads-*) Qwen2.5-0.5B at S = 1024 (14 shares of 896 values, 49 KiB) ran
  /// 1,367-1,373 tokens/s against 1,300; Llama-3.2-1B (32 of 2048, 256 KiB) 1,235 against
  /// 1,272, and with 4 heads a group (8 shares, 64 KiB) 1,198 against 1,260. With the shares
  /// added in fixed point by the merge itself, Llama's step by head ran faster without the down
  /// projection (2026-12-08 00:33 UTC, `--fusion o-heads` 1,378 against `on` 1,286); with it,
  /// the default's, it has not been measured, so the line stays until it is.
  static bool Pays(const reference::DecoderShape& shape, const Config& config);

  /// The configuration a step of `engine`'s choices runs it at: q8, fused, merge kByHead (or
  /// kAuto where it Pays) and ConfigFor's, for a model of two layers or more (each layer's
  /// dispatch clears the sum of the layer before); nothing where the step merges otherwise. (The
  /// engine still falls back where the gate/up GEMV cannot read the sum on the device.)
  static std::optional<Config> ForStep(const reference::DecoderShape& shape,
                                       const DeviceLimits& limits, const EngineConfig& engine);

  /// The shares it adds into each row of the sum: heads ÷ heads a group.
  static uint32_t Shares(const reference::DecoderShape& shape, const Config& config) {
    return shape.heads / config.heads;
  }

  /// Compiles the kernel for the model's shapes at `config`, merging partials of `splits` splits
  /// a KV head.
  FusedMergeOHeads(gpu::Context& context, const reference::DecoderShape& shape, uint32_t splits,
                   const Config& config);

  /// One layer's dispatch: the split's partials `part_o` and `part_ml` (llm_attention_decode's
  /// layout) merged, through `o_columns` (ByBlockColumns' o), added into `sum` ([hidden] i32, 0
  /// when it starts); `clear` ([hidden] i32, never `sum`) set to 0: a vector that no dispatch
  /// reads before the next one adds into it (the engine's: the layer before's).
  gpu::Dispatch Record(const gpu::Buffer& part_o, const gpu::Buffer& part_ml,
                       const GpuQ4& o_columns, const gpu::Buffer& sum,
                       const gpu::Buffer& clear) const;

 private:
  gpu::Context& context_;
  uint32_t chunks_ = 0, groups_ = 0;
  gpu::ComputePipeline pipeline_;
};

}  // namespace refract::decode
