// A decoder's whole decode step on the GPU, recorded as an engine records it: every op compiled
// once for the model (grids sized for the cache's capacity), its buffers and bind groups made
// once, and one step's dispatches — the same list every token — re-encoded per token. What
// changes between tokens lives in two small uniforms the engine rewrites through the queue (the
// position and step index; decode attention's KV length) and in the token buffer, which the
// step's own argmax writes on the GPU: a run reads nothing back between tokens.
//
// The step (rotate-half RoPE; Dawn places a barrier before every dispatch of a pass, so each
// dispatch depends on the one before):
//   embed (q4 row of the token) · rmsnorm, then per layer: qkv GEMV · bias+RoPE+KV append ·
//   attention split · merge · o GEMV · add+rmsnorm · gate+up GEMV · silu-mul · down GEMV ·
//   add+rmsnorm (the next layer's input norm, or the final one); then LM head GEMV · argmax
//   partial · pick.
// With q8 activations the norms and silu-mul write their output as int8 blocks of 32
// (decode_quantize_q8.wgsl) and the GEMVs that read them (qkv, gate+up, down, LM head) are the
// q8 GEMVs (dot4I8Packed): the same dispatches, no quantizer of their own. The o GEMV reads
// attention's f32 output either way. With q8 and `fuse` (EngineConfig), fused_gemvs.h's kernels
// take the place of the chains they fold: the norm before q/k/v and gate/up inside those GEMVs,
// bias+RoPE+KV append and silu-mul in their ends, the argmax's partial stage in the LM head's
// end, and (`merge`) attention's merge in the o GEMV or with it a head at a time.
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "gpu/command_recorder.h"
#include "gpu/context.h"
#include "ops/attention_rules.h"
#include "ops/matmul_rules.h"
#include "reference/llm_decoder.h"

namespace refract::decode {

/// One dispatch of the step and the kind of work it does ("qkv", "attention", ...): what the
/// time split sums by.
struct StepDispatch {
  std::string kind;
  gpu::Dispatch dispatch;
};

/// A q4 matrix on the GPU: its MatMulNBits blocks and scales.
struct GpuQ4 {
  gpu::Buffer codes, scales;
};

/// A decoder's weights on the GPU, uploaded once and shared by engines of any capacity.
struct GpuDecoderWeights {
  struct Layer {
    GpuQ4 qkv, o, gate_up, down;
    GpuQ4 qkv_paired;      ///< qkv with its rows in RoPE pairs (fused_gemvs.h)
    GpuQ4 gate_up_paired;  ///< gate_up with gate and up rows interleaved (fused_gemvs.h)
    GpuQ4 o_columns;       ///< o's blocks a column at a time (fused_gemvs.h's ByBlockColumns)
    GpuQ4 down_columns;    ///< down's blocks a column at a time (ByBlockColumns)
    gpu::Buffer qkv_bias;  ///< zeros without attention_bias
    gpu::Buffer input_norm, post_attention_norm;
  };
  std::vector<Layer> layers;
  GpuQ4 embedding, lm_head;  ///< the same buffers when tied
  gpu::Buffer final_norm;
};

GpuDecoderWeights UploadDecoderWeights(gpu::Context& context, const reference::DecoderShape& shape,
                                       const reference::DecoderWeights& weights);

/// What a GEMV of the step does besides the GEMV: nothing, or one of the fused GEMVs
/// (fused_gemvs.h) — the norm, q/k/v, bias, RoPE and KV append; the norm, gate/up and silu-mul;
/// those and the down projection; the LM head and the argmax's first stage.
enum class GemvFusion : uint8_t {
  kNone,
  kNormQkvRope,
  kNormGateUpSilu,
  kNormGateUpDown,
  kHeadArgmax
};

/// A q4 GEMV of the step: N × K, on q8 activations or f32 ones, fused or not.
struct GemvKey {
  uint32_t n = 0, k = 0;
  bool q8 = false;
  GemvFusion fusion = GemvFusion::kNone;
  auto operator<=>(const GemvKey&) const = default;
};

/// The step's GEMVs with `activations`, in step order, each once (a shape two ops share, once):
/// q/k/v, o, gate/up, down, the LM head; with q8 and `fuse`, the fused q/k/v, gate/up and LM head
/// GEMVs too, and with `fuse_down` the gate/up GEMV that ends in the down projection (the plain
/// and less fused ones stay: the step falls back to them where the device refuses a fused one).
std::vector<GemvKey> StepGemvs(const reference::DecoderShape& shape,
                               reference::DecoderActivations activations, bool fuse = true,
                               bool fuse_down = false);

/// The step's decode attention over a cache of `capacity` positions: one query, sized for the
/// whole cache (the KV length it reads each step comes from a uniform).
ops::AttentionShape StepAttentionShape(const reference::DecoderShape& shape, uint32_t capacity);

/// Where the step's decode attention merges its splits (q8, fused; each where the device takes
/// its kernel, else kOwnDispatch).
enum class MergeFusion : uint8_t {
  /// kByHead where it pays (FusedMergeOHeads::Pays: measured faster for Qwen2.5-0.5B on the
  /// H100; not taken for Llama-3.2-1B, as FusedMergeOHeads::Pays says), else kOwnDispatch
  kAuto,
  kOwnDispatch,  ///< a dispatch of its own, then the o GEMV
  kInOGemv,      ///< made by every workgroup of the o GEMV (FusedMergeO), one dispatch fewer
  /// with the o projection a head a workgroup row (FusedMergeOHeads), the heads' shares added up
  /// in fixed point for the gate/up GEMV's input: one dispatch fewer, each head merged by its own
  /// workgroups only
  kByHead,
};

struct EngineConfig {
  uint32_t capacity = 0;   ///< positions the KV cache holds
  uint32_t max_steps = 1;  ///< steps whose tokens a run records (generated[index])
  /// A prefill of this many tokens (0: none) at position `prefill_at`: its attention is compiled
  /// for the history before it (the tuned flash kernel, causal), its matmuls are GEMMs.
  uint32_t prompt = 0;
  uint32_t prefill_at = 0;
  /// How the GEMVs after a norm or silu-mul read their input (the CPU model's same choice).
  reference::DecoderActivations activations = reference::DecoderActivations::kF32;
  /// Configurations that replace the default of the GEMVs of those shapes (a profile's winners).
  std::map<GemvKey, ops::GemvConfig> gemvs;
  /// Decode attention's axes that replace its defaults (a profile's winner): resolved as the
  /// split's rules resolve them at the cache's capacity; `splits` unset sizes them for it.
  ops::Settings attention;
  /// q8: the fused GEMVs (fused_gemvs.h) where the device takes them; false: the norms, GEMVs,
  /// RoPE and silu-mul each a dispatch of its own (the design before them, for comparison).
  bool fuse = true;
  /// q8 with `fuse`: where decode attention's merge runs.
  MergeFusion merge = MergeFusion::kAuto;
  /// q8 with `fuse`: every layer's gate/up GEMV ends in the down projection, added up in fixed
  /// point (FusedGateUpDown), which the next layer's q/k/v GEMV and the final norm read: one
  /// dispatch fewer a layer, where the device takes the kernels and the model has 2 layers or
  /// more.
  bool fuse_down = false;
};

class DecodeEngine {
 public:
  /// Allocates the cache and activations, compiles every op and binds it to `weights` (GpuError
  /// naming the kernel when one fails; UsageError when the device cannot take the model).
  DecodeEngine(gpu::Context& context, const reference::DecoderShape& shape,
               const GpuDecoderWeights& weights, const EngineConfig& config);

  /// Writes every layer's history (`positions` rows) into the cache; the next step runs at
  /// position `positions`.
  void LoadHistory(std::span<const reference::LayerHistory> history, uint32_t positions);
  /// Sets the token the next step reads, and embeds it (a submit of one dispatch): the step's
  /// input. Each step's argmax pick writes and embeds the next token itself.
  void SetToken(uint32_t token);
  /// Writes the values of step `index` at position(): the step uniform and attention's.
  void WriteStepValues(uint32_t index);
  /// The step's dispatches, in order: a token of RecordSteps. The last, the argmax's pick, writes
  /// the token and moves the step's values on by one (WriteStepValues writes them over).
  const std::vector<StepDispatch>& step() const { return step_; }
  /// Where the step merges decode attention's splits: the configuration's choice as the device
  /// took it (never kAuto; kOwnDispatch without q8 or `fuse`).
  MergeFusion merge() const { return merge_; }
  /// Whether the gate/up GEMVs end in the down projection (EngineConfig::fuse_down as the device
  /// and the model took it).
  bool fused_down() const { return fused_down_config_.has_value(); }
  /// The fused gate/up + down kernel's configuration as compiled, where fused_down().
  const std::optional<ops::GemvConfig>& fused_down_config() const { return fused_down_config_; }
  /// Decode attention's configuration as compiled (EngineConfig::attention resolved).
  const ops::AttentionDecodeConfig& attention_config() const { return attention_config_; }
  /// Moves to the next position (after a step is recorded).
  void Advance() { ++position_; }
  /// Records `count` steps as one pass (timestamps `begin` and `end` around it with `queries`):
  /// each step's dispatches, the last of which (the argmax's pick) moves the step's values on by
  /// one on the GPU, so that the steps run back to back without the host. The caller writes the
  /// first step's values first (WriteStepValues) and moves past the steps after (SetPosition); the
  /// steps must fit the cache and the run (UsageError).
  void RecordSteps(gpu::CommandRecorder& recorder, uint32_t count,
                   gpu::TimestampQueries* queries = nullptr, uint32_t begin = 0,
                   uint32_t end = 0) const;
  /// Moves to `position` (≤ the history's end, or anywhere the cache holds what a step there
  /// attends to; the capacity itself: a full cache, where no step may run): a run starts again
  /// from there, overwriting the cache after it.
  void SetPosition(uint32_t position);
  uint32_t position() const { return position_; }
  uint32_t capacity() const { return config_.capacity; }

  /// The prompt a prefill embeds (config.prompt tokens).
  void SetPrompt(std::span<const uint32_t> tokens);
  /// Records the prefill as an engine runs it: a pass of every layer over the prompt's rows, a
  /// copy of the last row's normed state, then the step's LM head and argmax in a second pass
  /// (timestamp `begin` at the first pass's start, `end` at the second's end, with `queries`).
  /// The caller writes the step values first (WriteStepValues at position() = prefill_at) and
  /// moves past the prompt after (SetPosition).
  void RecordPrefill(gpu::CommandRecorder& recorder, gpu::TimestampQueries* queries = nullptr,
                     uint32_t begin = 0, uint32_t end = 0) const;
  /// The prefill's dispatches, both passes, in order (what it is counted by).
  std::vector<StepDispatch> PrefillDispatches() const;

  /// The last step's logits [vocab] (waits for the queue).
  std::vector<float> ReadLogits();
  /// The tokens steps 0 .. count − 1 of the run wrote.
  std::vector<uint32_t> ReadGenerated(uint32_t count);
  /// Layer `layer`'s cached keys of positions [0, count) (tests).
  std::vector<float> ReadKeys(uint32_t layer, uint32_t count);

 private:
  void Build(const GpuDecoderWeights& weights);
  bool q8() const { return config_.activations == reference::DecoderActivations::kQ8; }
  void BuildPrefill(const GpuDecoderWeights& weights);

  gpu::Context& context_;
  reference::DecoderShape shape_;
  EngineConfig config_;
  MergeFusion merge_ = MergeFusion::kOwnDispatch;
  std::optional<ops::GemvConfig> fused_down_config_;
  ops::AttentionDecodeConfig attention_config_;
  uint32_t position_ = 0;
  uint32_t written_index_ = 0;  ///< the step index WriteStepValues wrote last
  StepDispatch embed_;          ///< the token SetToken wrote, embedded into the step's input
  gpu::Buffer step_uniform_, attention_uniform_, token_, generated_, logits_;
  std::vector<gpu::Buffer> keys_, values_;
  std::vector<uint8_t> attention_template_;  ///< the op's AttentionDecodeParams, as compiled
  std::vector<gpu::Buffer> keep_;            ///< the activations and tables the dispatches bind
  std::vector<StepDispatch> step_;
  uint32_t head_dispatches_ = 0;  ///< the step's last: its LM head and argmax
  /// The step's normed state (f32: the LM head's input; q8: the prefill's last row, quantized
  /// into the LM head's input by head_input_), RoPE's table.
  gpu::Buffer normed_, inv_freq_;
  std::vector<StepDispatch> head_input_;  ///< q8: quantizes normed_ for the LM head; f32: none
  gpu::Buffer prompt_ids_, prefill_normed_;
  std::vector<StepDispatch> prefill_;  ///< the prefill's first pass
};

/// Records `dispatches` as one compute pass of `recorder` (timestamps `begin` and `end` around
/// it when `queries` is given).
void RecordStep(gpu::CommandRecorder& recorder, std::span<const StepDispatch> dispatches,
                gpu::TimestampQueries* queries = nullptr, uint32_t begin = 0, uint32_t end = 0);

}  // namespace refract::decode
