#include "decode/decode_engine.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <optional>

#include "base/error.h"
#include "decode/engine_parts.h"
#include "decode/fused_gemvs.h"
#include "decode/quantizing_ops.h"
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "ops/op_kinds.h"

namespace refract::decode {
namespace {

using namespace parts;  // NOLINT(google-build-using-namespace): this module's own parts
using reference::DecoderShape;

using Gemv = ops::Op<ops::MatmulShape, ops::GemvConfig, ops::MatmulBuffers>;

// q8: the residual stream's slots (ResidualStream).
constexpr uint32_t kX = 0, kH = 1, kProjected = 2, kZeros = 3;

ops::MatmulShape GemvShape(uint32_t n, uint32_t k) {
  return {.weights = ops::Weights::kQ4, .dims = {.m = 1, .k = k, .n = n}};
}

/// The configuration of the q4 GEMV of N × K on f32 activations, or (`q8`) on int8 ones:
/// the one `chosen` holds for it, else its default.
ops::GemvConfig GemvConfigFor(const gpu::Context& context, uint32_t n, uint32_t k, bool q8,
                              const std::map<GemvKey, ops::GemvConfig>& chosen) {
  const auto it = chosen.find({.n = n, .k = k, .q8 = q8});
  if (it != chosen.end()) return it->second;
  return (q8 ? ops::kGemvQ8Rules : ops::kGemvRules).Resolve(GemvShape(n, k), context.limits());
}

/// Where the fused GEMV `fusion` of N × K starts from (its ConfigFor then fits it to the fused
/// kernel): the configuration `chosen` holds for it, else the one it holds for the plain q8 GEMV
/// of its shape, else `fallback` (the fused kernel's own default).
ops::GemvConfig FusedStart(uint32_t n, uint32_t k, GemvFusion fusion,
                           const std::map<GemvKey, ops::GemvConfig>& chosen,
                           const ops::GemvConfig& fallback) {
  for (const GemvKey& key : {GemvKey{.n = n, .k = k, .q8 = true, .fusion = fusion},
                             GemvKey{.n = n, .k = k, .q8 = true}}) {
    if (const auto it = chosen.find(key); it != chosen.end()) return it->second;
  }
  return fallback;
}

/// That GEMV, compiled.
Gemv MakeGemv(gpu::Context& context, uint32_t n, uint32_t k, const std::string& label, bool q8,
              const std::map<GemvKey, ops::GemvConfig>& chosen) {
  return Gemv(q8 ? ops::kGemvQ8 : ops::kGemv, context, GemvShape(n, k),
              GemvConfigFor(context, n, k, q8, chosen), label);
}

}  // namespace

std::vector<GemvKey> StepGemvs(const DecoderShape& s, reference::DecoderActivations activations,
                               bool fuse, bool fuse_down) {
  const bool q8 = activations == reference::DecoderActivations::kQ8;
  std::vector<GemvKey> keys;
  auto add = [&keys](const GemvKey& key) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  };
  if (q8 && fuse) add({s.QkvRows(), s.hidden, true, GemvFusion::kNormQkvRope});
  add({s.QkvRows(), s.hidden, q8});
  add({s.hidden, s.QRows(), false});
  if (q8 && fuse && fuse_down) {
    add({2 * s.intermediate, s.hidden, true, GemvFusion::kNormGateUpDown});
  }
  if (q8 && fuse) add({2 * s.intermediate, s.hidden, true, GemvFusion::kNormGateUpSilu});
  if (q8 && fuse) add({s.vocab, s.hidden, true, GemvFusion::kHeadArgmax});
  for (const GemvKey& key :
       {GemvKey{2 * s.intermediate, s.hidden, q8}, GemvKey{s.hidden, s.intermediate, q8},
        GemvKey{s.vocab, s.hidden, q8}}) {
    add(key);
  }
  return keys;
}

GpuDecoderWeights UploadDecoderWeights(gpu::Context& context, const DecoderShape& shape,
                                       const reference::DecoderWeights& weights) {
  GpuDecoderWeights gpu_weights;
  for (const reference::DecoderLayerWeights& w : weights.layers) {
    gpu_weights.layers.push_back(
        {.qkv = UploadQ4(context, w.qkv, "decode qkv"),
         .o = UploadQ4(context, w.o, "decode o"),
         .gate_up = UploadQ4(context, w.gate_up, "decode gate_up"),
         .down = UploadQ4(context, w.down, "decode down"),
         .qkv_paired = UploadQ4(context, PairedForRope(w.qkv, shape), "decode qkv paired"),
         .gate_up_paired = UploadQ4(context, PairedGateUp(w.gate_up), "decode gate_up paired"),
         .o_columns = UploadQ4(context, ByBlockColumns(w.o), "decode o by block columns"),
         .down_columns =
             UploadQ4(context, ByBlockColumns(w.down), "decode down by block columns"),
         .qkv_bias = UploadFloats(
             context, w.qkv_bias.empty() ? std::vector<float>(shape.QkvRows(), 0.0f) : w.qkv_bias,
             "decode qkv bias"),
         .input_norm = UploadFloats(context, w.input_norm, "decode input norm"),
         .post_attention_norm = UploadFloats(context, w.post_attention_norm, "decode post norm")});
  }
  gpu_weights.embedding = UploadQ4(context, weights.embedding, "decode embedding");
  gpu_weights.lm_head = weights.lm_head ? UploadQ4(context, *weights.lm_head, "decode lm_head")
                                        : gpu_weights.embedding;
  gpu_weights.final_norm = UploadFloats(context, weights.final_norm, "decode final norm");
  return gpu_weights;
}

ops::AttentionShape StepAttentionShape(const reference::DecoderShape& shape, uint32_t capacity) {
  return {.seq_len = 1,
          .kv_len = capacity,
          .heads = shape.heads,
          .kv_heads = shape.kv_heads,
          .head_dim = shape.head_dim,
          .position_offset = capacity - 1,
          .causal = false};
}

DecodeEngine::DecodeEngine(gpu::Context& context, const DecoderShape& shape,
                           const GpuDecoderWeights& weights, const EngineConfig& config)
    : context_(context), shape_(shape), config_(config) {
  REFRACT_THROW_IF(config.capacity == 0 || config.max_steps == 0, UsageError,
                   "a decode engine needs a cache and at least one step");
  const uint64_t alignment = context.limits().min_storage_buffer_offset_alignment;
  REFRACT_THROW_IF(uint64_t{shape.intermediate} * 4 % alignment != 0, UsageError,
                   std::string(shape.name) + ": intermediate_size " +
                       std::to_string(shape.intermediate) +
                       " puts the up projection at a byte offset that is no multiple of "
                       "the device's storage offset alignment (" +
                       std::to_string(alignment) + ")");
  Build(weights);
  if (config.prompt > 0) BuildPrefill(weights);
}

void DecodeEngine::Build(const GpuDecoderWeights& weights) {
  gpu::Context& c = context_;
  const DecoderShape& s = shape_;
  const uint64_t kv_row_bytes = uint64_t{s.KvRows()} * 4;
  auto keep = [this](gpu::Buffer buffer) {
    keep_.push_back(buffer);
    return buffer;
  };

  // The step's own state: its values (uniforms to the step's dispatches, storage to the argmax's
  // pick that ends it), the token, the generated tokens, the logits.
  constexpr uint32_t kStepUsage = gpu::kUsageUniform | gpu::kUsageStorage | gpu::kUsageCopyDst;
  step_uniform_ = c.CreateBuffer(sizeof(StepValues), kStepUsage, "decode step");
  token_ = c.CreateBuffer(16, kStorage, "decode token");
  generated_ = c.CreateBuffer(uint64_t{config_.max_steps} * 4, kStorage, "decode generated");
  logits_ = Floats(c, s.vocab, "decode logits");
  for (uint32_t layer = 0; layer < s.layers; ++layer) {
    keys_.push_back(c.CreateBuffer(config_.capacity * kv_row_bytes, kStorage, "decode keys"));
    values_.push_back(c.CreateBuffer(config_.capacity * kv_row_bytes, kStorage, "decode values"));
  }

  // Activations (each op's output a buffer of its own; x and h the residual stream). q8: x, h,
  // the projections that add to them and a zero slot are slots of one buffer (quantizing_ops.h's
  // ResidualStream), what the q8 norms bind.
  std::optional<ResidualStream> stream;
  gpu::BufferSlice x, h, projected;
  if (q8()) {
    stream.emplace(c, s.hidden, "decode residual");
    keep_.push_back(stream->buffer());
    x = stream->Slot(kX);
    h = stream->Slot(kH);
    projected = stream->Slot(kProjected);
  } else {
    x = keep(Floats(c, s.hidden, "decode x"));
    h = keep(Floats(c, s.hidden, "decode h"));
    projected = keep(Floats(c, s.hidden, "decode projected"));
  }
  normed_ = Floats(c, s.hidden, "decode normed");
  const gpu::Buffer& normed = normed_;
  const gpu::Buffer qkv = keep(Floats(c, s.QkvRows(), "decode qkv"));
  const gpu::Buffer q = keep(Floats(c, s.QRows(), "decode q"));
  const gpu::Buffer attended = keep(Floats(c, s.QRows(), "decode attended"));
  const gpu::Buffer gate_up = keep(Floats(c, 2 * uint64_t{s.intermediate}, "decode gate_up"));
  const gpu::Buffer mixed = keep(Floats(c, s.intermediate, "decode mixed"));
  const uint64_t gate_bytes = uint64_t{s.intermediate} * 4;
  // q8: the normed state and silu-mul's output as the q8 GEMVs read them.
  const Q8Row normed_q8 = q8() ? MakeQ8Row(c, s.hidden, "decode normed") : Q8Row{};
  const Q8Row mixed_q8 = q8() ? MakeQ8Row(c, s.intermediate, "decode mixed") : Q8Row{};
  for (const Q8Row* row : {&normed_q8, &mixed_q8}) {
    if (q8()) keep_.insert(keep_.end(), {row->codes, row->scale_sums});
  }

  // The ops, compiled once for the model.
  const std::map<GemvKey, ops::GemvConfig>& chosen = config_.gemvs;
  // q8: the q/k/v GEMV begins with the residual add and the norm and ends in its bias, RoPE and
  // KV append (one dispatch) where its rules take its rows made even and the device the fused
  // kernel; else (and with f32) the norm, the GEMV, then decode_rope_kv.wgsl.
  std::optional<FusedQkv> fused_qkv;
  if (q8() && config_.fuse) {
    if (const std::optional<ops::GemvConfig> config = FusedQkv::ConfigFor(
            FusedStart(s.QkvRows(), s.hidden, GemvFusion::kNormQkvRope, chosen,
                       GemvConfigFor(c, s.QkvRows(), s.hidden, true, {})),
            s,
            c.limits())) {
      fused_qkv.emplace(c, s, *config);
    }
  }
  std::optional<Gemv> qkv_gemv;
  if (!fused_qkv) qkv_gemv.emplace(MakeGemv(c, s.QkvRows(), s.hidden, "decode qkv", q8(), chosen));
  // q8, fused, merge kByHead (or kAuto where it pays): attention's merge and the o projection a
  // group of heads at a time, adding the groups' shares in fixed point into a vector of the
  // layer's, which the gate/up GEMV's input reads, where the device takes both kernels and there
  // are two layers or more (each layer's merge clears the vector of the layer before, which that
  // layer's gate/up GEMV has read: layer 0's the last layer's, read a step before).
  std::optional<FusedMergeOHeads::Config> merge_by_head =
      FusedMergeOHeads::ForStep(s, c.limits(), config_);
  // q8: the gate/up GEMV begins with the residual add and the norm and ends in silu(gate) · up
  // and its quantizer (one dispatch) where its configuration can hold whole blocks a workgroup
  // and the device the fused kernel; else the norm, the GEMV, then silu-mul.
  std::optional<FusedGateUp> fused_gate_up;
  if (q8() && config_.fuse) {
    const ops::GemvConfig start =
        FusedStart(2 * s.intermediate, s.hidden, GemvFusion::kNormGateUpSilu, chosen,
                   FusedGateUp::Resolve(s, c.limits(), {}));
    std::optional<ops::GemvConfig> config =
        FusedGateUp::ConfigFor(start, s, c.limits(), merge_by_head.has_value());
    if (!config && merge_by_head) {
      merge_by_head.reset();
      config = FusedGateUp::ConfigFor(start, s, c.limits());
    }
    if (config) fused_gate_up.emplace(c, s, *config, merge_by_head.has_value());
  }
  // q8, fused, fuse_down: every layer's gate/up GEMV ends in the down projection, added up in
  // fixed point into a vector of the layer's, which the next layer's q/k/v GEMV and the final
  // norm read, where the device takes both kernels and there are two layers or more (each
  // layer's gate/up GEMV clears the vector of the layer before, which the q/k/v GEMV before it
  // has read: gate/up 0 the last layer's, which the final norm read a step before).
  std::optional<FusedGateUpDown> fused_gate_up_down;
  std::optional<FusedQkv> fused_qkv_fixed;
  std::vector<gpu::Buffer> down_sums;
  if (fused_gate_up && fused_qkv && config_.fuse_down && s.layers > 1) {
    const bool o_sum = merge_by_head.has_value();
    // The configuration chosen for it (a gate-up-down profile entry) where the kernel takes it,
    // else the fused gate/up GEMV's.
    std::optional<ops::GemvConfig> config;
    const GemvKey down_key{2 * s.intermediate, s.hidden, true, GemvFusion::kNormGateUpDown};
    if (const auto it = chosen.find(down_key); it != chosen.end()) {
      config = FusedGateUpDown::ConfigFor(it->second, s, c.limits(), o_sum);
    }
    if (!config) {
      config = FusedGateUpDown::ConfigFor(fused_gate_up->config(), s, c.limits(), o_sum);
    }
    const std::optional<ops::GemvConfig> qkv_config =
        FusedQkv::ConfigFor(fused_qkv->config(), s, c.limits(), /*fixed_down=*/true);
    if (config && qkv_config) {
      fused_gate_up_down.emplace(c, s, *config, o_sum);
      fused_qkv_fixed.emplace(c, s, *qkv_config, /*fixed_down=*/true);
      for (uint32_t layer = 0; layer < s.layers; ++layer) {
        down_sums.push_back(
            keep(c.CreateBuffer(uint64_t{s.hidden} * 4, kStorage, "decode down sum")));
      }
    }
  }
  if (fused_gate_up_down) fused_down_config_ = fused_gate_up_down->config();
  std::optional<Gemv> gate_up_gemv;
  if (!fused_gate_up) {
    gate_up_gemv.emplace(MakeGemv(c, 2 * s.intermediate, s.hidden, "decode gate_up", q8(), chosen));
  }
  Gemv down_gemv = MakeGemv(c, s.hidden, s.intermediate, "decode down", q8(), chosen);
  Gemv head_gemv = MakeGemv(c, s.vocab, s.hidden, "decode lm_head", q8(), chosen);
  // q8: the LM head ends in the argmax's first stage (one dispatch) where the device takes the
  // fused kernel at the head's configuration; else the argmax's own first stage.
  std::optional<FusedHeadArgmax> fused_head;
  if (q8() && config_.fuse) {
    if (const std::optional<ops::GemvConfig> config = FusedHeadArgmax::ConfigFor(
            FusedStart(s.vocab, s.hidden, GemvFusion::kHeadArgmax, chosen,
                       GemvConfigFor(c, s.vocab, s.hidden, true, {})),
            s, c.limits())) {
      fused_head.emplace(c, s, *config);
    }
  }
  NormOp rms_norm = MakeNorm(c, s, ops::NormKind::kRmsNorm, 1, "decode rmsnorm");
  NormOp add_norm = MakeNorm(c, s, ops::NormKind::kAddRmsNorm, 1, "decode add-rmsnorm");
  SiluMulOp silu_mul = MakeSiluMul(c, s, 1, "decode silu-mul");
  const ops::AttentionShape attention_shape = StepAttentionShape(s, config_.capacity);
  attention_config_ =
      ops::kAttentionDecodeRules.Resolve(attention_shape, c.limits(), config_.attention);
  if (auto refusal = ops::kAttentionDecodeRules.Check(attention_config_, attention_shape,
                                                      c.limits());
      refusal && !config_.attention.empty()) {
    throw UsageError("decode attention at " + ops::SettingsText(config_.attention) + ": " +
                     *refusal);
  }
  ops::Op<ops::AttentionShape, ops::AttentionDecodeConfig, ops::AttentionBuffers> attention(
      ops::kAttentionDecode, c, attention_shape, attention_config_, "decode attention");
  const ops::AttentionDecodeParams attention_params =
      ops::DecodeParamsFor(attention_shape, attention_config_);
  attention_template_.resize(sizeof(attention_params));
  std::memcpy(attention_template_.data(), &attention_params, sizeof(attention_params));
  attention_uniform_ = c.CreateBuffer(sizeof(attention_params), kStepUsage, "decode attention");
  gpu::WriteUniform(c, attention_uniform_, attention_params);
  // q8, fused: attention's merge made with the o projection by head (merge_by_head, into the
  // layer's sum the gate/up GEMV reads) or by the o GEMV (kInOGemv, where the device takes it),
  // from partials in buffers of the step's (every layer's split writes them, the kernel after it
  // reads them); else the merge's own dispatch, then the o GEMV on its output.
  std::optional<FusedMergeO> fused_o;
  std::optional<FusedMergeOHeads> fused_o_heads;
  gpu::Buffer part_o, part_ml;
  std::vector<gpu::Buffer> o_sums;
  if (merge_by_head) {
    fused_o_heads.emplace(c, s, attention_params.splits, *merge_by_head);
    for (uint32_t layer = 0; layer < s.layers; ++layer) {
      o_sums.push_back(keep(c.CreateBuffer(uint64_t{s.hidden} * 4, kStorage, "decode o sum")));
    }
  } else if (q8() && config_.fuse && config_.merge == MergeFusion::kInOGemv) {
    if (const std::optional<ops::GemvConfig> config = FusedMergeO::ConfigFor(
            GemvConfigFor(c, s.hidden, s.QRows(), false, chosen), s, c.limits())) {
      fused_o.emplace(c, s, attention_params.splits, *config);
    }
  }
  merge_ = fused_o_heads ? MergeFusion::kByHead
           : fused_o     ? MergeFusion::kInOGemv
                         : MergeFusion::kOwnDispatch;
  // The o GEMV on attention's output, where no fused kernel takes its place.
  std::optional<Gemv> o_gemv;
  if (merge_ == MergeFusion::kOwnDispatch) {
    o_gemv.emplace(MakeGemv(c, s.hidden, s.QRows(), "decode o", false, chosen));
  }
  if (fused_o || fused_o_heads) {
    const uint64_t slots = uint64_t{s.heads} * attention_params.splits;
    part_o = keep(c.CreateBuffer(slots * s.head_dim * 4, kStorage, "decode attention partials"));
    part_ml = keep(c.CreateBuffer(slots * 8, kStorage, "decode attention partial max and sum"));
  }

  const gpu::ComputePipeline embed_pipeline =
      ops::CompileKernel(c, {"decode_embed_row_part", "decode_embed_q4"}, "decode embed");
  const gpu::ComputePipeline rope_pipeline =
      ops::CompileKernel(c, {"decode_rope_kv"}, "decode rope");
  // The argmax's partials: its own first stage's, or the fused LM head's workgroups'.
  const uint32_t argmax_groups =
      fused_head ? fused_head->partials() : ArgmaxStageGroups(s.vocab);
  auto argmax_kernel = [&](const char* entry, uint32_t workgroup) {
    return ArgmaxKernel(c, entry, workgroup, s.vocab, argmax_groups, s.hidden);
  };
  // The pick in the largest workgroup the device takes, up to 1024: the fused LM head leaves
  // thousands of partials.
  const gpu::ComputePipeline argmax_pick =
      argmax_kernel("pick", std::max(kArgmaxWorkgroup, c.limits().LargestWorkgroup(1024)));

  // Tables.
  inv_freq_ = UploadFloats(c, InverseFrequencies(s), "decode inv_freq");
  const gpu::Buffer& inv_freq = inv_freq_;
  const gpu::Buffer rope_params = keep(gpu::Uniform(
      c, RopeParams{.rows = 1, .heads = s.heads, .kv_heads = s.kv_heads, .head_dim = s.head_dim},
      "decode rope params"));
  const gpu::Buffer embed_params = keep(gpu::Uniform(
      c, EmbedParams{.tokens = 1, .hidden = s.hidden, .padding = {}}, "decode embed params"));
  const gpu::Buffer argmax_partials =
      keep(c.CreateBuffer(uint64_t{argmax_groups} * 8, kStorage, "decode argmax partials"));

  auto add = [this](const std::string& kind, std::vector<gpu::Dispatch> dispatches) {
    for (gpu::Dispatch& dispatch : dispatches) step_.push_back({kind, std::move(dispatch)});
  };
  // The GEMV `op` on the f32 `in`, or with q8 activations on `in_q8` (null: f32 either way).
  auto gemv = [&](const Gemv& op, const GpuQ4& w, const gpu::BufferSlice& in, const Q8Row* in_q8,
                  gpu::BufferSlice out) {
    const bool quantized = q8() && in_q8 != nullptr;
    return op.Record(c,
                     ops::MatmulBuffers{.a = quantized ? in_q8->codes : in,
                                        .w = w.codes,
                                        .scales = w.scales,
                                        .zeros = {},
                                        .c = out,
                                        .a_scales = quantized ? in_q8->scale_sums : gpu::Buffer{}});
  };
  // The norms (f32: y = RMSNorm(a + b → sum) · weight into `normed`) and silu-mul, into `mixed`
  // (f32) or `mixed_q8`.
  std::optional<QuantizingOps> quantizing;
  if (q8()) quantizing.emplace(c, s, fused_down());
  auto add_then_norm = [&](const gpu::BufferSlice& a, const gpu::BufferSlice& b,
                           const gpu::BufferSlice& sum, const gpu::Buffer& weight) {
    return add_norm.Record(c, AddNorm(a, b, sum, weight, normed));
  };
  auto silu_then_mul = [&]() {
    if (!q8()) {
      return silu_mul.Record(
          c, ops::ActivationBuffers{.x = gpu::BufferSlice(gate_up, 0, gate_bytes),
                                    .y = mixed,
                                    .up = gpu::BufferSlice(gate_up, gate_bytes, gate_bytes)});
    }
    return std::vector<gpu::Dispatch>{quantizing->SiluMul(gate_up, mixed_q8)};
  };

  // The token the host sets, embedded (SetToken): after that, each step's argmax pick embeds the
  // next token itself.
  embed_ = {"embed", ops::OneDispatch(c, embed_pipeline,
                                      {token_, {}, {}, x, embed_params, {},
                                       weights.embedding.codes, weights.embedding.scales},
                                      gpu::GroupsFor(s.hidden / 8, 256))};
  // Layer `layer`'s bias, RoPE and KV append after its q/k/v GEMV, and its attention.
  const uint32_t rope_threads = (s.heads + 2 * s.kv_heads) * (s.head_dim / 2);
  auto rope_kv = [&](uint32_t layer) {
    return std::vector<gpu::Dispatch>{
        ops::OneDispatch(c, rope_pipeline,
                         {qkv, weights.layers[layer].qkv_bias, inv_freq, q, keys_[layer],
                          values_[layer], rope_params, step_uniform_},
                         gpu::GroupsFor(rope_threads, 256))};
  };
  auto attend = [&](uint32_t layer) {
    return attention.Record(c, ops::AttentionBuffers{.q = q,
                                                     .k = keys_[layer],
                                                     .v = values_[layer],
                                                     .out = attended,
                                                     .params = attention_uniform_});
  };
  if (!q8()) {
    // f32: x the residual before each layer, h after its attention.
    add("norm", rms_norm.Record(c, Norm(x, weights.layers[0].input_norm, normed)));
    for (uint32_t layer = 0; layer < s.layers; ++layer) {
      const GpuDecoderWeights::Layer& w = weights.layers[layer];
      const gpu::Buffer& next_norm =
          layer + 1 < s.layers ? weights.layers[layer + 1].input_norm : weights.final_norm;
      add("qkv", gemv(*qkv_gemv, w.qkv, normed, nullptr, qkv));
      add("rope-kv", rope_kv(layer));
      add("attention", attend(layer));
      add("o-proj", gemv(*o_gemv, w.o, attended, nullptr, projected));
      add("add-norm", add_then_norm(x, projected, h, w.post_attention_norm));
      add("gate-up", gemv(*gate_up_gemv, w.gate_up, normed, nullptr, gate_up));
      add("silu-mul", silu_then_mul());
      add("down", gemv(down_gemv, w.down, mixed, nullptr, projected));
      add("add-norm", add_then_norm(h, projected, x, next_norm));
    }
  } else {
    // q8: each layer's two residual adds and norms open the GEMVs after them. Before layer L's
    // q/k/v, x holds the residual before layer L − 1's MLP and `projected` that MLP's output
    // (layer 0: the embedding and zeros): their sum goes to h. Before the gate/up GEMV, h and the
    // o projection's output sum into x. After the last layer, x + the last down projection.
    const gpu::Buffer first_sum = keep(stream->Sum(c, kX, kZeros, kH));
    const gpu::Buffer layer_sum = keep(stream->Sum(c, kX, kProjected, kH));
    const gpu::Buffer attention_sum = keep(stream->Sum(c, kH, kProjected, kX));
    auto residual = [&](const gpu::Buffer& sum, const gpu::Buffer& weight) {
      return NormInput{.stream = stream->buffer(), .sum = sum, .weight = weight};
    };
    for (uint32_t layer = 0; layer < s.layers; ++layer) {
      const GpuDecoderWeights::Layer& w = weights.layers[layer];
      const NormInput before_qkv = residual(layer == 0 ? first_sum : layer_sum, w.input_norm);
      const NormInput before_gate_up = residual(attention_sum, w.post_attention_norm);
      const gpu::Buffer o_sum = o_sums.empty() ? gpu::Buffer{} : o_sums[layer];  // by head
      if (fused_qkv_fixed && layer > 0) {
        add("norm-qkv-rope-kv",
            {fused_qkv_fixed->Record(before_qkv, w.qkv_paired, w.qkv_bias, inv_freq, q,
                                     keys_[layer], values_[layer], step_uniform_,
                                     down_sums[layer - 1])});
      } else if (fused_qkv) {
        add("norm-qkv-rope-kv",
            {fused_qkv->Record(before_qkv, w.qkv_paired, w.qkv_bias, inv_freq, q, keys_[layer],
                               values_[layer], step_uniform_)});
      } else {
        add("add-norm", {quantizing->AddNorm(before_qkv, normed_q8)});
        add("qkv", gemv(*qkv_gemv, w.qkv, normed, &normed_q8, qkv));
        add("rope-kv", rope_kv(layer));
      }
      if (fused_o || fused_o_heads) {
        std::vector<gpu::Dispatch> split_and_merge =
            attention.Record(c, ops::AttentionBuffers{.q = q,
                                                      .k = keys_[layer],
                                                      .v = values_[layer],
                                                      .out = attended,
                                                      .params = attention_uniform_,
                                                      .part_o = part_o,
                                                      .part_ml = part_ml});
        split_and_merge.pop_back();  // the merge: the o GEMV's input makes it
        add("attention", std::move(split_and_merge));
        if (fused_o) {
          add("merge-o-proj", {fused_o->Record(part_o, part_ml, w.o, projected)});
        } else {
          add("merge-o-heads",
              {fused_o_heads->Record(part_o, part_ml, w.o_columns, o_sums[layer],
                                     o_sums[(layer + s.layers - 1) % s.layers])});
        }
      } else {
        add("attention", attend(layer));
        add("o-proj", gemv(*o_gemv, w.o, attended, nullptr, projected));
      }
      if (fused_gate_up_down) {
        add("norm-gate-up-down",
            {fused_gate_up_down->Record(before_gate_up, w.gate_up_paired, w.down_columns,
                                        down_sums[layer],
                                        down_sums[(layer + s.layers - 1) % s.layers], o_sum)});
        continue;  // the next layer's q/k/v GEMV (or the final norm) reads the down projection
      }
      if (fused_gate_up) {
        add("norm-gate-up-silu",
            {fused_gate_up->Record(before_gate_up, w.gate_up_paired, mixed_q8, o_sum)});
      } else {
        add("add-norm", {quantizing->AddNorm(before_gate_up, normed_q8)});
        add("gate-up", gemv(*gate_up_gemv, w.gate_up, normed, &normed_q8, gate_up));
        add("silu-mul", silu_then_mul());
      }
      add("down", gemv(down_gemv, w.down, mixed, &mixed_q8, projected));
    }
    const NormInput final_norm = residual(layer_sum, weights.final_norm);
    add("add-norm", {fused_gate_up_down
                         ? quantizing->AddNormFixed(final_norm, down_sums.back(), normed_q8)
                         : quantizing->AddNorm(final_norm, normed_q8)});
  }
  const size_t head_begin = step_.size();
  if (fused_head) {
    add("lm-head-argmax",
        {fused_head->Record(normed_q8, weights.lm_head, logits_, argmax_partials)});
  } else {
    add("lm-head", gemv(head_gemv, weights.lm_head, normed, &normed_q8, logits_));
    add("argmax", {ops::OneDispatch(c, argmax_kernel("partial", kArgmaxWorkgroup),
                                    {logits_, argmax_partials, {}, {}, {}}, argmax_groups)});
  }
  add(fused_head ? "argmax-pick" : "argmax",
      {ops::OneDispatch(
          c, argmax_pick,
          {{}, argmax_partials, token_, generated_, step_uniform_, attention_uniform_,
           weights.embedding.codes, weights.embedding.scales, x},
          1)});
  head_dispatches_ = static_cast<uint32_t>(step_.size() - head_begin);
  if (q8()) {
    // The prefill's last row reaches the step's LM head through normed_: quantized first.
    const ops::QuantizeShape row{.k = s.hidden, .m = 1};
    const ops::Op<ops::QuantizeShape, ops::QuantizeConfig, ops::QuantizeBuffers> quantize(
        ops::kQuantizeQ8, c, row, ops::kQuantizeQ8Rules.Resolve(row, c.limits()),
        "decode quantize");
    for (gpu::Dispatch& dispatch : quantize.Record(
             c, {.x = normed, .codes = normed_q8.codes, .scale_sums = normed_q8.scale_sums})) {
      head_input_.push_back({"quantize", std::move(dispatch)});
    }
  }
}

void DecodeEngine::LoadHistory(std::span<const reference::LayerHistory> history,
                               uint32_t positions) {
  REFRACT_THROW_IF(history.size() != shape_.layers || positions >= config_.capacity, UsageError,
                   std::string("a history of ") + std::to_string(positions) +
                       " positions does not fit a cache of " + std::to_string(config_.capacity));
  const size_t count = size_t{positions} * shape_.KvRows();
  for (uint32_t layer = 0; layer < shape_.layers; ++layer) {
    REFRACT_THROW_IF(history[layer].k.size() != count || history[layer].v.size() != count, Error,
                     std::string("layer ") + std::to_string(layer) +
                         "'s history holds the wrong number of values");
    if (count == 0) continue;
    context_.WriteBuffer(keys_[layer], 0, std::as_bytes(std::span<const float>(history[layer].k)));
    context_.WriteBuffer(values_[layer], 0,
                         std::as_bytes(std::span<const float>(history[layer].v)));
  }
  position_ = positions;
}

void DecodeEngine::SetPosition(uint32_t position) {
  REFRACT_THROW_IF(position > config_.capacity, UsageError,
                   std::string("position ") + std::to_string(position) + " is past the cache of " +
                       std::to_string(config_.capacity));
  position_ = position;
}

void DecodeEngine::SetToken(uint32_t token) {
  REFRACT_THROW_IF(token >= shape_.vocab, UsageError,
                   std::string("token ") + std::to_string(token) + " is past the vocabulary of " +
                       std::to_string(shape_.vocab));
  context_.WriteBuffer(token_, 0, std::as_bytes(std::span<const uint32_t>(&token, 1)));
  gpu::CommandRecorder recorder(context_);
  RecordStep(recorder, std::span(&embed_, 1));
  recorder.Submit();
}

void DecodeEngine::WriteStepValues(uint32_t index) {
  REFRACT_THROW_IF(
      position_ >= config_.capacity, UsageError,
      std::string("the cache of ") + std::to_string(config_.capacity) + " positions is full");
  REFRACT_THROW_IF(index >= config_.max_steps, UsageError,
                   std::string("step ") + std::to_string(index) + " is past the run's " +
                       std::to_string(config_.max_steps));
  gpu::WriteUniform(context_, step_uniform_,
                    StepValues{.position = position_, .index = index, .padding = {0, 0}});
  written_index_ = index;
  ops::AttentionDecodeParams params;
  std::memcpy(&params, attention_template_.data(), sizeof(params));
  params.kv_len = position_ + 1;
  params.position_offset = position_;
  gpu::WriteUniform(context_, attention_uniform_, params);
}

std::vector<float> DecodeEngine::ReadLogits() { return gpu::Download<float>(context_, logits_); }

std::vector<uint32_t> DecodeEngine::ReadGenerated(uint32_t count) {
  REFRACT_THROW_IF(count == 0 || count > config_.max_steps, Error,
                   std::string("reading ") + std::to_string(count) + " generated tokens");
  return gpu::Download<uint32_t>(context_, generated_, count);
}

std::vector<float> DecodeEngine::ReadKeys(uint32_t layer, uint32_t count) {
  return gpu::Download<float>(context_, keys_.at(layer), size_t{count} * shape_.KvRows());
}

void DecodeEngine::RecordSteps(gpu::CommandRecorder& recorder, uint32_t count,
                               gpu::TimestampQueries* queries, uint32_t begin, uint32_t end) const {
  REFRACT_THROW_IF(count == 0 || uint64_t{position_} + count > config_.capacity ||
                       uint64_t{written_index_} + count > config_.max_steps,
                   UsageError,
                   std::string("recording ") + std::to_string(count) + " steps from position " +
                       std::to_string(position_) + " (step " + std::to_string(written_index_) +
                       ") past the cache of " + std::to_string(config_.capacity) +
                       " or the run's " + std::to_string(config_.max_steps) + " steps");
  recorder.BeginPass(queries, begin, end);
  for (uint32_t s = 0; s < count; ++s) {
    for (const StepDispatch& d : step_) recorder.Dispatch(d.dispatch);
  }
  recorder.EndPass();
}

void RecordStep(gpu::CommandRecorder& recorder, std::span<const StepDispatch> dispatches,
                gpu::TimestampQueries* queries, uint32_t begin, uint32_t end) {
  recorder.BeginPass(queries, begin, end);
  for (const StepDispatch& d : dispatches) recorder.Dispatch(d.dispatch);
  recorder.EndPass();
}

}  // namespace refract::decode
