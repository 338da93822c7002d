#include "cli/decode_export.h"

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/error.h"
#include "results/output_file.h"

namespace refract::cli {
namespace {

using nlohmann::json;

/// A safetensors file being assembled (the format: an 8-byte little-endian header length, the
/// JSON header naming each tensor's dtype, shape and byte range, then the data).
class SafeTensors {
 public:
  void Add(const std::string& name, std::vector<uint64_t> shape, const std::vector<float>& values) {
    AddBytes(name, "F32", std::move(shape), values.data(), values.size() * 4);
  }
  void Add(const std::string& name, std::vector<uint64_t> shape,
           const std::vector<int32_t>& values) {
    AddBytes(name, "I32", std::move(shape), values.data(), values.size() * 4);
  }
  /// The whole file.
  std::string Bytes() const {
    std::string header = header_.dump();
    header.resize((header.size() + 7) / 8 * 8, ' ');  // the data starts 8-byte aligned
    std::string file(8, '\0');
    const uint64_t length = header.size();
    for (int i = 0; i < 8; ++i) file[i] = static_cast<char>((length >> (8 * i)) & 0xff);
    return file + header + data_;
  }

 private:
  void AddBytes(const std::string& name, const char* dtype, std::vector<uint64_t> shape,
                const void* bytes, size_t size) {
    header_[name] = {
        {"dtype", dtype}, {"shape", shape}, {"data_offsets", {data_.size(), data_.size() + size}}};
    data_.append(static_cast<const char*>(bytes), size);
  }
  json header_ = json::object();
  std::string data_;
};

/// Rows [first, first + count) of a q4 weight, dequantized, as one [count, K] tensor.
std::vector<float> Dequantized(const reference::Q4Weight& w, uint32_t first, uint32_t count) {
  std::vector<float> values(size_t{count} * w.k);
  for (uint32_t row = 0; row < count; ++row) {
    w.DequantizeRow(first + row, std::span<float>(values.data() + size_t{row} * w.k, w.k));
  }
  return values;
}

json HfConfig(const reference::DecoderShape& s, uint32_t positions) {
  const std::string architecture = s.family == "qwen2"   ? "Qwen2ForCausalLM"
                                   : s.family == "llama" ? "LlamaForCausalLM"
                                                         : "MistralForCausalLM";
  json config = {{"architectures", {architecture}},
                 {"model_type", s.family},
                 {"hidden_size", s.hidden},
                 {"intermediate_size", s.intermediate},
                 {"num_hidden_layers", s.layers},
                 {"num_attention_heads", s.heads},
                 {"num_key_value_heads", s.kv_heads},
                 {"head_dim", s.head_dim},
                 {"vocab_size", s.vocab},
                 {"rope_theta", s.rope_theta},
                 {"rms_norm_eps", s.rms_eps},
                 {"tie_word_embeddings", s.tied_embeddings},
                 {"hidden_act", "silu"},
                 {"max_position_embeddings", std::max<uint32_t>(positions, 32768)},
                 {"torch_dtype", "float32"},
                 {"attention_dropout", 0.0}};
  if (s.family == "qwen2") config["use_sliding_window"] = false;
  if (s.family == "llama") {
    config["attention_bias"] = s.attention_bias;
    config["mlp_bias"] = false;
  }
  if (s.family == "mistral") {
    config["sliding_window"] = s.attention_window == 0 ? json(nullptr) : json(s.attention_window);
  }
  if (s.rope_scaling) {
    config["rope_scaling"] = {
        {"rope_type", "llama3"},
        {"factor", s.rope_scaling->factor},
        {"low_freq_factor", s.rope_scaling->low_freq_factor},
        {"high_freq_factor", s.rope_scaling->high_freq_factor},
        {"original_max_position_embeddings", s.rope_scaling->original_max_position}};
  }
  return config;
}

std::string ModelTensors(const reference::DecoderShape& s, const reference::DecoderWeights& w) {
  SafeTensors file;
  const uint64_t hidden = s.hidden;
  file.Add("model.embed_tokens.weight", {s.vocab, hidden}, Dequantized(w.embedding, 0, s.vocab));
  if (w.lm_head) file.Add("lm_head.weight", {s.vocab, hidden}, Dequantized(*w.lm_head, 0, s.vocab));
  file.Add("model.norm.weight", {hidden}, w.final_norm);
  for (uint32_t layer = 0; layer < s.layers; ++layer) {
    const reference::DecoderLayerWeights& l = w.layers[layer];
    const std::string p = "model.layers." + std::to_string(layer) + ".";
    const uint32_t q = s.QRows(), kv = s.KvRows();
    file.Add(p + "self_attn.q_proj.weight", {q, hidden}, Dequantized(l.qkv, 0, q));
    file.Add(p + "self_attn.k_proj.weight", {kv, hidden}, Dequantized(l.qkv, q, kv));
    file.Add(p + "self_attn.v_proj.weight", {kv, hidden}, Dequantized(l.qkv, q + kv, kv));
    if (!l.qkv_bias.empty()) {
      auto part = [&](uint32_t first, uint32_t count) {
        return std::vector<float>(l.qkv_bias.begin() + first, l.qkv_bias.begin() + first + count);
      };
      file.Add(p + "self_attn.q_proj.bias", {q}, part(0, q));
      file.Add(p + "self_attn.k_proj.bias", {kv}, part(q, kv));
      file.Add(p + "self_attn.v_proj.bias", {kv}, part(q + kv, kv));
    }
    file.Add(p + "self_attn.o_proj.weight", {hidden, q}, Dequantized(l.o, 0, s.hidden));
    file.Add(p + "mlp.gate_proj.weight", {s.intermediate, hidden},
             Dequantized(l.gate_up, 0, s.intermediate));
    file.Add(p + "mlp.up_proj.weight", {s.intermediate, hidden},
             Dequantized(l.gate_up, s.intermediate, s.intermediate));
    file.Add(p + "mlp.down_proj.weight", {hidden, s.intermediate},
             Dequantized(l.down, 0, s.hidden));
    file.Add(p + "input_layernorm.weight", {hidden}, l.input_norm);
    file.Add(p + "post_attention_layernorm.weight", {hidden}, l.post_attention_norm);
  }
  return file.Bytes();
}

}  // namespace

void CheckExportFolder(const std::string& dir) {
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) {
    throw UsageError("--export '" + dir + "' is no folder");
  }
  if (access(dir.c_str(), W_OK) != 0) {
    throw UsageError("--export '" + dir + "': the folder is not writable");
  }
}

void ExportDecode(gpu::Context& context, const suites::decode::DecodeModel& model,
                  uint32_t history_positions, const std::string& dir, uint64_t seed,
                  std::ostream& messages) {
  const reference::DecoderShape& s = model.shape();
  const suites::decode::ReadSteps read =
      suites::decode::RunReadSteps(context, model, history_positions, kExportSteps, seed);
  const std::filesystem::path folder(dir);
  auto write = [&](const std::string& name, const std::string& bytes) {
    results::WriteOutput((folder / name).string(), bytes, messages);
  };
  write("config.json", HfConfig(s, history_positions + kExportSteps).dump(2) + "\n");
  write("model.safetensors", ModelTensors(s, model.weights()));
  SafeTensors history;
  for (uint32_t layer = 0; layer < s.layers && history_positions > 0; ++layer) {
    const std::vector<uint64_t> shape = {history_positions, s.kv_heads, s.head_dim};
    history.Add("layers." + std::to_string(layer) + ".keys", shape, read.history[layer].k);
    history.Add("layers." + std::to_string(layer) + ".values", shape, read.history[layer].v);
  }
  write("history.safetensors", history.Bytes());
  SafeTensors steps;
  steps.Add("tokens", {read.tokens.size()},
            std::vector<int32_t>(read.tokens.begin(), read.tokens.end()));
  std::vector<float> logits;
  for (const std::vector<float>& step : read.logits)
    logits.insert(logits.end(), step.begin(), step.end());
  steps.Add("logits", {read.logits.size(), s.vocab}, logits);
  write("steps.safetensors", steps.Bytes());
  const json manifest = {{"schema_version", 1},
                         {"model", s.name},
                         {"family", s.family},
                         {"history_positions", history_positions},
                         {"steps", kExportSteps},
                         {"seed", seed},
                         {"rope", "rotate-half (element i with i + head_dim / 2)"},
                         {"weights", "q4 MatMulNBits blocks of 32, dequantized to f32"}};
  write("decode.json", manifest.dump(2) + "\n");
  messages << "exported the model and its first " << kExportSteps << " steps to " << dir << "\n";
}

}  // namespace refract::cli
