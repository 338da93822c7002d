// CPU model of a whole decoder-only transformer of the Llama / Qwen2 / Mistral family, one token
// a step: what `refract decode` verifies its GPU step against. The network as Hugging Face
// transformers' LlamaForCausalLM and Qwen2ForCausalLM define it (modeling_llama.py,
// modeling_qwen2.py):
//   x = embed(token)
//   per layer: h = x + o_proj(attention(rope(q), rope(k), v)) over the cache with the new k, v
//              appended at the step's position, q/k/v = qkv_proj(rmsnorm(x)) (+ bias: Qwen2);
//              x = h + down(silu(gate(rmsnorm(h))) · up(rmsnorm(h)))
//   logits = lm_head(rmsnorm(x)) (lm_head = the embedding when tied)
// RoPE pairs element i of a head with element i + d/2 ("rotate half"), angle pos · inv_freq[i]
// for i < d/2; query head h reads KV head h / (heads / kv_heads). Every projection is a q4
// MatMulNBits matrix (llm_q4.h: blocks of 32, f32 scales, zero point 8) with f32 activations,
// or (DecoderActivations::kQ8) the inputs of q/k/v, gate/up, down and the LM head quantized to
// int8 in blocks of 32 as the q8 GEMV reads them (llm_q8.h); each op's output is rounded to f32
// (as the GPU stores it), its arithmetic is in double.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "reference/llm_q4.h"

namespace refract::reference {

/// Llama 3.1 / 3.2's RoPE frequency rescaling (rope_scaling with rope_type "llama3"): its
/// factor, low_freq_factor, high_freq_factor and original_max_position_embeddings.
struct Llama3RopeScaling {
  double factor = 1, low_freq_factor = 1, high_freq_factor = 4;
  uint32_t original_max_position = 8192;
};

/// The dimensions and conventions of one network.
struct DecoderShape {
  std::string name;    ///< "qwen2.5-0.5b", or the config file it came from
  std::string family;  ///< Hugging Face model_type: "qwen2", "llama" or "mistral"
  uint32_t hidden = 0;
  uint32_t layers = 0;
  uint32_t heads = 0;     ///< query heads
  uint32_t kv_heads = 0;  ///< key/value heads; heads is a multiple of it
  uint32_t head_dim = 0;
  uint32_t intermediate = 0;  ///< the MLP's width
  uint32_t vocab = 0;
  double rope_theta = 10000;
  double rms_eps = 1e-6;
  bool tied_embeddings = true;  ///< the LM head is the embedding matrix
  bool attention_bias = false;  ///< q, k and v projections carry biases (Qwen2)
  std::optional<Llama3RopeScaling> rope_scaling;
  /// Keys a query sees at most (Mistral's sliding_window); 0: the whole cache. The model here
  /// attends to the whole cache: a run past the window is refused, not approximated.
  uint32_t attention_window = 0;

  uint32_t QRows() const { return heads * head_dim; }
  uint32_t KvRows() const { return kv_heads * head_dim; }
  uint32_t QkvRows() const { return QRows() + 2 * KvRows(); }
  uint32_t group() const { return heads / kv_heads; }
};

/// inv_freq[i] = theta^(−2i / d) for i < d/2, rescaled as Llama 3 defines it when the shape has
/// rope_scaling: wavelengths above original / low_freq_factor divided by factor, below
/// original / high_freq_factor kept, between them blended (transformers'
/// _compute_llama3_parameters).
std::vector<double> DecoderInverseFrequencies(const DecoderShape& shape);

/// Rotates each head of `x` (heads × d) to `position`, rotate-half pairing, with `inv_freq`
/// (DecoderInverseFrequencies), in double, each value rounded to f32.
void RotateHalf(std::span<float> x, uint32_t heads, uint32_t d, std::span<const double> inv_freq,
                uint32_t position);

/// A q4 weight W [N, K] in the MatMulNBits layout; y = W · x.
struct Q4Weight {
  uint32_t n = 0;
  uint32_t k = 0;
  MatMulNBitsPacking packing;

  /// Row `row` of W, dequantized, into `out` (K values).
  void DequantizeRow(uint32_t row, std::span<float> out) const;
};

struct DecoderLayerWeights {
  Q4Weight qkv;                            ///< [QkvRows, hidden]: q rows, then k, then v
  std::vector<float> qkv_bias;             ///< [QkvRows]; empty without attention_bias
  Q4Weight o;                              ///< [hidden, QRows]
  Q4Weight gate_up;                        ///< [2 · intermediate, hidden]: gate rows, then up rows
  Q4Weight down;                           ///< [hidden, intermediate]
  std::vector<float> input_norm;           ///< [hidden]
  std::vector<float> post_attention_norm;  ///< [hidden]
};

struct DecoderWeights {
  std::vector<DecoderLayerWeights> layers;
  Q4Weight embedding;               ///< [vocab, hidden]; the LM head when tied
  std::optional<Q4Weight> lm_head;  ///< [vocab, hidden] when not tied
  std::vector<float> final_norm;    ///< [hidden]

  const Q4Weight& LmHead() const { return lm_head ? *lm_head : embedding; }
};

/// Deterministic synthetic weights of `shape` from `seed`: uniform codes, block scales drawn so
/// that a row's dequantized values have a spread of about 1 / sqrt(K) (outputs keep the scale of
/// their inputs), norm weights in [0.9, 1.1), biases in [−0.5, 0.5).
DecoderWeights SyntheticDecoderWeights(const DecoderShape& shape, uint64_t seed);

/// A layer's synthetic KV history: `positions` rows of kv_heads · head_dim values, keys in
/// [−2, 2) and values in [−1, 1), from `seed` and the layer; a shorter history is a prefix of a
/// longer one.
struct LayerHistory {
  std::vector<float> k;
  std::vector<float> v;
};
LayerHistory SyntheticHistory(const DecoderShape& shape, uint32_t layer, uint32_t positions,
                              uint64_t seed);

/// The first index of the largest value (NaN never wins; 0 for an empty span).
uint32_t Argmax(std::span<const float> values);

/// How the projections after a norm or silu · up read their input: f32, or int8 in blocks of 32
/// (llm_q8.h: what the q8 GEMV reads). The o projection reads attention's f32 output either way.
enum class DecoderActivations { kF32, kQ8 };

/// The network on the CPU, with its KV cache.
class DecoderModel {
 public:
  /// `capacity`: positions the cache holds.
  DecoderModel(const DecoderShape& shape, const DecoderWeights& weights, uint32_t capacity,
               DecoderActivations activations = DecoderActivations::kF32);

  /// From the next step on, the layers' projections read `layers` and the LM head reads `head`
  /// (a prefill's GEMMs take f32 rows, while the step's LM head after it takes its own).
  void SetActivations(DecoderActivations layers, DecoderActivations head);

  /// Loads every layer's history (`positions` rows each) and moves the position after it.
  void SetHistory(std::span<const LayerHistory> history, uint32_t positions);

  /// Runs `token` at position(), appends its keys and values there and advances; returns the
  /// logits [vocab] (none without `logits`: a prompt's rows before its last). Throws UsageError
  /// past the capacity or for a token past the vocabulary.
  std::vector<float> Step(uint32_t token, bool logits = true);

  uint32_t position() const { return position_; }
  /// Layer `layer`'s cache [capacity, kv_heads · head_dim], K or V.
  std::span<const float> Keys(uint32_t layer) const { return keys_[layer]; }
  std::span<const float> Values(uint32_t layer) const { return values_[layer]; }

 private:
  const DecoderShape& shape_;
  const DecoderWeights& weights_;
  uint32_t capacity_;
  DecoderActivations layer_activations_, head_activations_;
  uint32_t position_ = 0;
  std::vector<double> inv_freq_;
  std::vector<std::vector<float>> keys_, values_;
};

/// y = W · x in double, rounded to f32; rows computed in parallel.
std::vector<float> Q4Gemv(const Q4Weight& w, std::span<const float> x);

}  // namespace refract::reference
