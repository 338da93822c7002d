// The prefill of a decode engine (decode_engine.h): the prompt's rows through every layer with
// the GEMM and causal flash-attention paths, its keys and values appended to the cache, then the
// step's own LM head and argmax on the last row.
#include "base/error.h"
#include "decode/decode_engine.h"
#include "decode/engine_parts.h"
#include "ops/op_kinds.h"

namespace refract::decode {
namespace {

using namespace parts;  // NOLINT(google-build-using-namespace): this module's own parts

using Gemm = ops::Op<ops::MatmulShape, ops::GemmConfig, ops::MatmulBuffers>;

Gemm MakeGemm(gpu::Context& context, uint32_t m, uint32_t n, uint32_t k, const std::string& label) {
  const ops::MatmulShape shape{.weights = ops::Weights::kQ4, .dims = {.m = m, .k = k, .n = n}};
  return Gemm(ops::kGemm, context, shape, ops::kGemmRules.Resolve(shape, context.limits()), label);
}

}  // namespace

void DecodeEngine::BuildPrefill(const GpuDecoderWeights& weights) {
  gpu::Context& c = context_;
  const reference::DecoderShape& s = shape_;
  const uint32_t rows = config_.prompt;
  REFRACT_THROW_IF(config_.prefill_at + rows > config_.capacity, UsageError,
                   "a prompt of " + std::to_string(rows) + " tokens at position " +
                       std::to_string(config_.prefill_at) + " does not fit a cache of " +
                       std::to_string(config_.capacity));
  auto keep = [this](gpu::Buffer buffer) {
    keep_.push_back(buffer);
    return buffer;
  };
  prompt_ids_ = c.CreateBuffer(uint64_t{rows} * 4, kStorage, "prefill prompt");
  const gpu::Buffer x = keep(Floats(c, uint64_t{rows} * s.hidden, "prefill x"));
  prefill_normed_ = Floats(c, uint64_t{rows} * s.hidden, "prefill normed");
  const gpu::Buffer& normed = prefill_normed_;
  const gpu::Buffer h = keep(Floats(c, uint64_t{rows} * s.hidden, "prefill h"));
  const gpu::Buffer qkv = keep(Floats(c, uint64_t{rows} * s.QkvRows(), "prefill qkv"));
  const gpu::Buffer q = keep(Floats(c, uint64_t{rows} * s.QRows(), "prefill q"));
  const gpu::Buffer attended = keep(Floats(c, uint64_t{rows} * s.QRows(), "prefill attended"));
  const gpu::Buffer projected = keep(Floats(c, uint64_t{rows} * s.hidden, "prefill projected"));
  const gpu::Buffer gate = keep(Floats(c, uint64_t{rows} * s.intermediate, "prefill gate"));
  const gpu::Buffer up = keep(Floats(c, uint64_t{rows} * s.intermediate, "prefill up"));
  const gpu::Buffer mixed = keep(Floats(c, uint64_t{rows} * s.intermediate, "prefill mixed"));

  Gemm qkv_gemm = MakeGemm(c, rows, s.QkvRows(), s.hidden, "prefill qkv");
  Gemm o_gemm = MakeGemm(c, rows, s.hidden, s.QRows(), "prefill o");
  Gemm gate_gemm = MakeGemm(c, rows, s.intermediate, s.hidden, "prefill gate");
  Gemm down_gemm = MakeGemm(c, rows, s.hidden, s.intermediate, "prefill down");
  NormOp rms_norm = MakeNorm(c, s, ops::NormKind::kRmsNorm, rows, "prefill rmsnorm");
  NormOp add_norm = MakeNorm(c, s, ops::NormKind::kAddRmsNorm, rows, "prefill add-rmsnorm");
  SiluMulOp silu_mul = MakeSiluMul(c, s, rows, "prefill silu-mul");
  const ops::AttentionShape attention_shape{.seq_len = rows,
                                            .kv_len = config_.prefill_at + rows,
                                            .heads = s.heads,
                                            .kv_heads = s.kv_heads,
                                            .head_dim = s.head_dim,
                                            .position_offset = config_.prefill_at,
                                            .causal = true};
  ops::Op<ops::AttentionShape, ops::AttentionConfig, ops::AttentionBuffers> attention(
      ops::kAttentionOps.tuned, c, attention_shape,
      ops::kAttentionRules.tuned.Resolve(attention_shape, c.limits()), "prefill attention");
  const gpu::ComputePipeline embed_pipeline =
      ops::CompileKernel(c, {"decode_embed_row_part", "decode_embed_q4"}, "prefill embed");
  const gpu::ComputePipeline rope_pipeline =
      ops::CompileKernel(c, {"decode_rope_kv"}, "prefill rope");
  const gpu::Buffer rope_params = keep(gpu::Uniform(
      c, RopeParams{.rows = rows, .heads = s.heads, .kv_heads = s.kv_heads, .head_dim = s.head_dim},
      "prefill rope params"));
  const gpu::Buffer embed_params = keep(gpu::Uniform(
      c, EmbedParams{.tokens = rows, .hidden = s.hidden, .padding = {}}, "prefill embed params"));

  auto add = [this](const std::string& kind, std::vector<gpu::Dispatch> dispatches) {
    for (gpu::Dispatch& dispatch : dispatches) prefill_.push_back({kind, std::move(dispatch)});
  };
  auto gemm = [&](const Gemm& op, const gpu::BufferSlice& codes, const gpu::BufferSlice& scales,
                  const gpu::Buffer& in, const gpu::Buffer& out) {
    return op.Record(
        c, ops::MatmulBuffers{
               .a = in, .w = codes, .scales = scales, .zeros = {}, .c = out, .a_scales = {}});
  };
  const uint64_t blocks = s.hidden / 32;  // K blocks of the gate and up rows
  const uint64_t gate_codes = uint64_t{s.intermediate} * blocks * 16;
  const uint64_t gate_scales = uint64_t{s.intermediate} * blocks * 4;

  add("embed", {ops::OneDispatch(c, embed_pipeline,
                                 {prompt_ids_, {}, {}, x, embed_params, {},
                                  weights.embedding.codes, weights.embedding.scales},
                                 gpu::GroupsFor(uint64_t{rows} * s.hidden / 8, 256))});
  add("norm", rms_norm.Record(c, Norm(x, weights.layers[0].input_norm, normed)));
  const uint64_t rope_threads = uint64_t{rows} * (s.heads + 2 * s.kv_heads) * (s.head_dim / 2);
  for (uint32_t layer = 0; layer < s.layers; ++layer) {
    const GpuDecoderWeights::Layer& w = weights.layers[layer];
    const gpu::Buffer& next_norm =
        layer + 1 < s.layers ? weights.layers[layer + 1].input_norm : weights.final_norm;
    add("qkv", gemm(qkv_gemm, w.qkv.codes, w.qkv.scales, normed, qkv));
    add("rope-kv", {ops::OneDispatch(c, rope_pipeline,
                                     {qkv, w.qkv_bias, inv_freq_, q, keys_[layer], values_[layer],
                                      rope_params, step_uniform_},
                                     gpu::GroupsFor(rope_threads, 256))});
    add("attention",
        attention.Record(
            c, ops::AttentionBuffers{
                   .q = q, .k = keys_[layer], .v = values_[layer], .out = attended, .params = {}}));
    add("o-proj", gemm(o_gemm, w.o.codes, w.o.scales, attended, projected));
    add("add-norm", add_norm.Record(c, AddNorm(x, projected, h, w.post_attention_norm, normed)));
    add("gate-up", gemm(gate_gemm, gpu::BufferSlice(w.gate_up.codes, 0, gate_codes),
                        gpu::BufferSlice(w.gate_up.scales, 0, gate_scales), normed, gate));
    add("gate-up", gemm(gate_gemm, gpu::BufferSlice(w.gate_up.codes, gate_codes, gate_codes),
                        gpu::BufferSlice(w.gate_up.scales, gate_scales, gate_scales), normed, up));
    add("silu-mul", silu_mul.Record(c, ops::ActivationBuffers{.x = gate, .y = mixed, .up = up}));
    add("down", gemm(down_gemm, w.down.codes, w.down.scales, mixed, projected));
    add("add-norm", add_norm.Record(c, AddNorm(h, projected, x, next_norm, normed)));
  }
}

void DecodeEngine::SetPrompt(std::span<const uint32_t> tokens) {
  REFRACT_THROW_IF(tokens.size() != config_.prompt, UsageError,
                   "a prompt of " + std::to_string(tokens.size()) + " tokens for an engine of " +
                       std::to_string(config_.prompt));
  for (uint32_t token : tokens) {
    REFRACT_THROW_IF(token >= shape_.vocab, UsageError,
                     "prompt token " + std::to_string(token) + " is past the vocabulary");
  }
  context_.WriteBuffer(prompt_ids_, 0, std::as_bytes(tokens));
}

void DecodeEngine::RecordPrefill(gpu::CommandRecorder& recorder, gpu::TimestampQueries* queries,
                                 uint32_t begin, uint32_t end) const {
  REFRACT_THROW_IF(prefill_.empty(), UsageError, "this engine was built without a prefill");
  recorder.BeginPass(queries, begin, queries != nullptr ? begin + 1 : 0);
  for (const StepDispatch& d : prefill_) recorder.Dispatch(d.dispatch);
  recorder.EndPass();
  const uint64_t row_bytes = uint64_t{shape_.hidden} * 4;
  recorder.Copy(prefill_normed_, (config_.prompt - 1) * row_bytes, normed_, 0, row_bytes);
  // The step's tail: its LM head over the normed row (q8: quantized first), then argmax.
  recorder.BeginPass(queries, queries != nullptr ? end - 1 : 0, end);
  for (const StepDispatch& d : head_input_) recorder.Dispatch(d.dispatch);
  for (size_t i = step_.size() - head_dispatches_; i < step_.size(); ++i) {
    recorder.Dispatch(step_[i].dispatch);
  }
  recorder.EndPass();
}

std::vector<StepDispatch> DecodeEngine::PrefillDispatches() const {
  std::vector<StepDispatch> all = prefill_;
  all.insert(all.end(), head_input_.begin(), head_input_.end());
  all.insert(all.end(), step_.end() - head_dispatches_, step_.end());
  return all;
}

}  // namespace refract::decode
