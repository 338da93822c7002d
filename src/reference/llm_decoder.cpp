#include "reference/llm_decoder.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <thread>

#include "base/error.h"
#include "reference/llm_attention.h"
#include "reference/llm_q8.h"
#include "reference/random_data.h"

namespace refract::reference {
namespace {

/// Calls body(begin, end) over [0, count) in contiguous chunks, one a hardware thread.
template <typename Body>
void ParallelChunks(uint32_t count, Body body) {
  const uint32_t threads =
      std::clamp<uint32_t>(std::thread::hardware_concurrency(), 1, std::max<uint32_t>(count, 1));
  if (threads <= 1 || count < 256) {
    body(0u, count);
    return;
  }
  std::vector<std::thread> workers;
  const uint32_t chunk = (count + threads - 1) / threads;
  for (uint32_t begin = 0; begin < count; begin += chunk) {
    workers.emplace_back(body, begin, std::min(count, begin + chunk));
  }
  for (std::thread& worker : workers) worker.join();
}

/// A q4 weight of uniform codes whose block scales give its dequantized values a spread of
/// about gain / sqrt(K): codes − 8 spread by ~4.6, so scale = u · gain / (4.6 · sqrt(K)) with
/// u in [0.5, 1.5).
Q4Weight SyntheticQ4(uint32_t n, uint32_t k, RandomStream& stream, double gain = 1.0) {
  const uint32_t blocks = Q4Blocks(k);
  Q4Weight w{.n = n, .k = k, .packing = {}};
  w.packing.b.resize(size_t{n} * blocks * (kQ4BlockSize / 2));
  for (size_t i = 0; i < w.packing.b.size(); i += 8) {
    const uint64_t bits = stream.NextU64();
    for (size_t j = 0; j < 8 && i + j < w.packing.b.size(); ++j) {
      w.packing.b[i + j] = static_cast<uint8_t>(bits >> (8 * j));
    }
  }
  const double base = gain / (4.6 * std::sqrt(static_cast<double>(k)));
  w.packing.scales.resize(size_t{n} * blocks);
  for (float& scale : w.packing.scales) {
    scale = static_cast<float>(base * stream.NextFloat(0.5f, 1.5f));
  }
  return w;
}

std::vector<float> Uniform(size_t count, RandomStream& stream, float lo, float hi) {
  std::vector<float> values(count);
  for (float& value : values) value = stream.NextFloat(lo, hi);
  return values;
}

/// y = RMSNorm(x) · weight (transformers' LlamaRMSNorm), in double, rounded to f32.
std::vector<float> RmsNormRow(std::span<const float> x, std::span<const float> weight, double eps) {
  double sum = 0;
  for (float value : x) sum += double{value} * value;
  const double inverse = 1.0 / std::sqrt(sum / static_cast<double>(x.size()) + eps);
  std::vector<float> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = static_cast<float>(x[i] * inverse * weight[i]);
  return y;
}

void Add(std::span<float> x, std::span<const float> y) {
  for (size_t i = 0; i < x.size(); ++i) x[i] += y[i];
}

}  // namespace

void RotateHalf(std::span<float> x, uint32_t heads, uint32_t d, std::span<const double> inv_freq,
                uint32_t position) {
  const uint32_t half = d / 2;
  for (uint32_t h = 0; h < heads; ++h) {
    float* head = x.data() + size_t{h} * d;
    for (uint32_t i = 0; i < half; ++i) {
      const double angle = position * inv_freq[i];
      const double c = std::cos(angle), s = std::sin(angle);
      const double a = head[i], b = head[i + half];
      head[i] = static_cast<float>(a * c - b * s);
      head[i + half] = static_cast<float>(b * c + a * s);
    }
  }
}

std::vector<double> DecoderInverseFrequencies(const DecoderShape& shape) {
  const uint32_t half = shape.head_dim / 2;
  std::vector<double> inv_freq(half);
  for (uint32_t i = 0; i < half; ++i) {
    inv_freq[i] = std::pow(shape.rope_theta, -2.0 * i / shape.head_dim);
  }
  if (!shape.rope_scaling) return inv_freq;
  const Llama3RopeScaling& r = *shape.rope_scaling;
  const double low_wavelength = r.original_max_position / r.high_freq_factor;
  const double high_wavelength = r.original_max_position / r.low_freq_factor;
  for (double& f : inv_freq) {
    const double wavelength = 2 * std::numbers::pi / f;
    if (wavelength > high_wavelength) {
      f /= r.factor;
    } else if (wavelength >= low_wavelength) {  // the band between: blended
      const double smooth = (r.original_max_position / wavelength - r.low_freq_factor) /
                            (r.high_freq_factor - r.low_freq_factor);
      f = (1 - smooth) * f / r.factor + smooth * f;
    }
  }
  return inv_freq;
}

void Q4Weight::DequantizeRow(uint32_t row, std::span<float> out) const {
  const uint32_t blocks = Q4Blocks(k);
  // A row's blocks are contiguous: value i's byte is i / 2 from the row's first.
  const uint8_t* bytes = packing.b.data() + size_t{row} * blocks * (kQ4BlockSize / 2);
  for (uint32_t i = 0; i < k; ++i) {
    const uint32_t code = (bytes[i / 2] >> (4 * (i % 2))) & 15u;
    const float scale = packing.scales[size_t{row} * blocks + i / kQ4BlockSize];
    out[i] = (static_cast<float>(code) - float{kQ4ZeroPoint}) * scale;
  }
}

std::vector<float> Q4Gemv(const Q4Weight& w, std::span<const float> x) {
  REFRACT_THROW_IF(x.size() != w.k, Error,
                   std::string("Q4Gemv: input of ") + std::to_string(x.size()) + " values, K " +
                       std::to_string(w.k));
  std::vector<float> y(w.n);
  const uint32_t blocks = Q4Blocks(w.k);
  ParallelChunks(w.n, [&](uint32_t begin, uint32_t end) {
    for (uint32_t row = begin; row < end; ++row) {
      const uint8_t* bytes = w.packing.b.data() + size_t{row} * blocks * (kQ4BlockSize / 2);
      double sum = 0;
      for (uint32_t block = 0; block < blocks; ++block) {
        double dot = 0;
        const uint32_t first = block * kQ4BlockSize;
        const uint32_t count = std::min(kQ4BlockSize, w.k - first);
        for (uint32_t i = 0; i < count; ++i) {
          const uint32_t code = (bytes[block * 16 + i / 2] >> (4 * (i % 2))) & 15u;
          dot += (static_cast<double>(code) - kQ4ZeroPoint) * x[first + i];
        }
        sum += dot * w.packing.scales[size_t{row} * blocks + block];
      }
      y[row] = static_cast<float>(sum);
    }
  });
  return y;
}

DecoderWeights SyntheticDecoderWeights(const DecoderShape& shape, uint64_t seed) {
  RandomStream stream(seed ^ 0x6465636f64657231ull);  // "decoder1"
  const uint32_t hidden = shape.hidden;
  DecoderWeights weights;
  for (uint32_t layer = 0; layer < shape.layers; ++layer) {
    DecoderLayerWeights w;
    w.qkv = SyntheticQ4(shape.QkvRows(), hidden, stream);
    if (shape.attention_bias) w.qkv_bias = Uniform(shape.QkvRows(), stream, -0.5f, 0.5f);
    w.o = SyntheticQ4(hidden, shape.QRows(), stream);
    w.gate_up = SyntheticQ4(2 * shape.intermediate, hidden, stream);
    w.down = SyntheticQ4(hidden, shape.intermediate, stream);
    w.input_norm = Uniform(hidden, stream, 0.9f, 1.1f);
    w.post_attention_norm = Uniform(hidden, stream, 0.9f, 1.1f);
    weights.layers.push_back(std::move(w));
  }
  weights.embedding = SyntheticQ4(shape.vocab, hidden, stream, 2.0);
  if (!shape.tied_embeddings) weights.lm_head = SyntheticQ4(shape.vocab, hidden, stream, 2.0);
  weights.final_norm = Uniform(hidden, stream, 0.9f, 1.1f);
  return weights;
}

LayerHistory SyntheticHistory(const DecoderShape& shape, uint32_t layer, uint32_t positions,
                              uint64_t seed) {
  RandomStream stream(seed ^ (0x6b76686973740000ull + layer));  // "kvhist" + layer
  const uint32_t width = shape.KvRows();
  LayerHistory history;
  history.k.resize(size_t{positions} * width);
  history.v.resize(size_t{positions} * width);
  // A position's key row, then its value row: a shorter history is a prefix of a longer one.
  for (size_t row = 0; row < positions; ++row) {
    for (size_t i = 0; i < width; ++i) history.k[row * width + i] = stream.NextFloat(-2.0f, 2.0f);
    for (size_t i = 0; i < width; ++i) history.v[row * width + i] = stream.NextFloat(-1.0f, 1.0f);
  }
  return history;
}

uint32_t Argmax(std::span<const float> values) {
  uint32_t best = 0;
  for (uint32_t i = 1; i < values.size(); ++i) {
    if (values[i] > values[best] || (std::isnan(values[best]) && !std::isnan(values[i]))) best = i;
  }
  return best;
}

DecoderModel::DecoderModel(const DecoderShape& shape, const DecoderWeights& weights,
                           uint32_t capacity, DecoderActivations activations)
    : shape_(shape),
      weights_(weights),
      capacity_(capacity),
      layer_activations_(activations),
      head_activations_(activations),
      inv_freq_(DecoderInverseFrequencies(shape)),
      keys_(shape.layers, std::vector<float>(size_t{capacity} * shape.KvRows())),
      values_(shape.layers, std::vector<float>(size_t{capacity} * shape.KvRows())) {}

void DecoderModel::SetActivations(DecoderActivations layers, DecoderActivations head) {
  layer_activations_ = layers;
  head_activations_ = head;
}

void DecoderModel::SetHistory(std::span<const LayerHistory> history, uint32_t positions) {
  REFRACT_THROW_IF(history.size() != shape_.layers || positions > capacity_, UsageError,
                   std::string("a history of ") + std::to_string(positions) + " positions over " +
                       std::to_string(history.size()) + " layers does not fit the model's cache");
  const size_t count = size_t{positions} * shape_.KvRows();
  for (uint32_t layer = 0; layer < shape_.layers; ++layer) {
    REFRACT_THROW_IF(history[layer].k.size() != count || history[layer].v.size() != count, Error,
                     std::string("layer ") + std::to_string(layer) +
                         "'s history holds the wrong number of values");
    std::copy(history[layer].k.begin(), history[layer].k.end(), keys_[layer].begin());
    std::copy(history[layer].v.begin(), history[layer].v.end(), values_[layer].begin());
  }
  position_ = positions;
}

std::vector<float> DecoderModel::Step(uint32_t token, bool logits) {
  REFRACT_THROW_IF(position_ >= capacity_, UsageError,
                   std::string("the cache of ") + std::to_string(capacity_) + " positions is full");
  REFRACT_THROW_IF(token >= shape_.vocab, UsageError,
                   std::string("token ") + std::to_string(token) + " is past the vocabulary of " +
                       std::to_string(shape_.vocab));
  const DecoderShape& s = shape_;
  const uint32_t q_rows = s.QRows(), kv_rows = s.KvRows();
  // The input of a projection after a norm or silu · up, as its GEMV reads it.
  auto input = [this](std::vector<float> x) {
    return layer_activations_ == DecoderActivations::kQ8 ? Q8RoundTrip(x) : x;
  };
  std::vector<float> x(s.hidden);
  weights_.embedding.DequantizeRow(token, x);
  const AttentionShape attention{.seq_len = 1,
                                 .kv_len = position_ + 1,
                                 .heads = s.heads,
                                 .kv_heads = s.kv_heads,
                                 .head_dim = s.head_dim,
                                 .position_offset = position_,
                                 .causal = true};
  for (uint32_t layer = 0; layer < s.layers; ++layer) {
    const DecoderLayerWeights& w = weights_.layers[layer];
    std::vector<float> qkv = Q4Gemv(w.qkv, input(RmsNormRow(x, w.input_norm, s.rms_eps)));
    if (!w.qkv_bias.empty()) Add(qkv, w.qkv_bias);
    std::span<float> q(qkv.data(), q_rows);
    std::span<float> k(qkv.data() + q_rows, kv_rows);
    std::span<float> v(qkv.data() + q_rows + kv_rows, kv_rows);
    RotateHalf(q, s.heads, s.head_dim, inv_freq_, position_);
    RotateHalf(k, s.kv_heads, s.head_dim, inv_freq_, position_);
    std::copy(k.begin(), k.end(), keys_[layer].begin() + size_t{position_} * kv_rows);
    std::copy(v.begin(), v.end(), values_[layer].begin() + size_t{position_} * kv_rows);
    const size_t visible = size_t{position_ + 1} * kv_rows;
    const std::vector<float> attended =
        Attention(attention, q, std::span<const float>(keys_[layer]).first(visible),
                  std::span<const float>(values_[layer]).first(visible));
    Add(x, Q4Gemv(w.o, attended));
    const std::vector<float> gate_up =
        Q4Gemv(w.gate_up, input(RmsNormRow(x, w.post_attention_norm, s.rms_eps)));
    std::vector<float> mixed(s.intermediate);
    for (uint32_t i = 0; i < s.intermediate; ++i) {
      const double gate = gate_up[i];
      mixed[i] = static_cast<float>(gate / (1 + std::exp(-gate)) * gate_up[s.intermediate + i]);
    }
    Add(x, Q4Gemv(w.down, input(mixed)));
  }
  ++position_;
  if (!logits) return {};
  std::vector<float> normed = RmsNormRow(x, weights_.final_norm, s.rms_eps);
  if (head_activations_ == DecoderActivations::kQ8) normed = Q8RoundTrip(normed);
  return Q4Gemv(weights_.LmHead(), normed);
}

}  // namespace refract::reference
