#include "decode/model_spec.h"

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/error.h"
#include "profile/document_text.h"

namespace refract::decode {
namespace {

using reference::DecoderShape;
using Json = nlohmann::json;

// The built-ins, as their published config.json files state them (Hugging Face Hub:
// Qwen/Qwen2.5-0.5B, Qwen/Qwen2.5-1.5B, meta-llama/Llama-3.2-1B), reduced to the fields read; a
// built-in `based_on` another is that one's config with its own fields over it.
struct Builtin {
  std::string_view name;
  std::string_view based_on;  ///< "" or an earlier built-in's name
  std::string_view config;
};
constexpr Builtin kBuiltins[] = {
    {"qwen2.5-0.5b", "",
     R"({"model_type": "qwen2", "hidden_size": 896, "num_hidden_layers": 24,
         "num_attention_heads": 14, "num_key_value_heads": 2, "intermediate_size": 4864,
         "vocab_size": 151936, "rope_theta": 1000000.0, "rms_norm_eps": 1e-06,
         "tie_word_embeddings": true, "hidden_act": "silu", "use_sliding_window": false,
         "sliding_window": 32768})"},
    {"qwen2.5-1.5b", "qwen2.5-0.5b",
     R"({"hidden_size": 1536, "num_hidden_layers": 28, "num_attention_heads": 12,
         "intermediate_size": 8960})"},
    {"llama-3.2-1b", "",
     R"({"model_type": "llama", "hidden_size": 2048, "num_hidden_layers": 16,
         "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 64,
         "intermediate_size": 8192, "vocab_size": 128256, "rope_theta": 500000.0,
         "rms_norm_eps": 1e-05, "tie_word_embeddings": true, "attention_bias": false,
         "hidden_act": "silu", "rope_scaling": {"factor": 32.0, "high_freq_factor": 4.0,
         "low_freq_factor": 1.0, "original_max_position_embeddings": 8192,
         "rope_type": "llama3"}})"},
};

/// A built-in's whole config text.
std::string BuiltinConfig(const Builtin& builtin) {
  if (builtin.based_on.empty()) return std::string(builtin.config);
  for (const Builtin& base : kBuiltins) {
    if (base.name == builtin.based_on) {
      nlohmann::json config = nlohmann::json::parse(BuiltinConfig(base));
      config.merge_patch(nlohmann::json::parse(builtin.config));
      return config.dump();
    }
  }
  throw Error("built-in model " + std::string(builtin.name) + " is based on no built-in");
}

/// Reads the fields of one config object, each error naming the field and the source.
class ConfigFields {
 public:
  ConfigFields(const Json& object, const std::string& source, std::string prefix = "")
      : object_(object), source_(source), prefix_(std::move(prefix)) {}

  [[noreturn]] void Refuse(const std::string& field, const std::string& why) const {
    throw UsageError(source_ + ": " + prefix_ + field + " " + why);
  }
  bool Has(const std::string& field) const {
    return object_.contains(field) && !object_.at(field).is_null();
  }
  /// A whole number in [1, most]; `fallback` when absent (none: required).
  uint32_t Count(const std::string& field, uint64_t most,
                 std::optional<uint32_t> fallback = std::nullopt) const {
    if (!Has(field)) {
      if (fallback) return *fallback;
      Refuse(field, "is missing");
    }
    const Json& value = object_.at(field);
    if (!value.is_number_integer()) Refuse(field, "is " + value.dump() + ", not a whole number");
    if (!value.is_number_unsigned() && value.get<int64_t>() <= 0) {
      Refuse(field, "is " + value.dump() + ": it must be a positive whole number");
    }
    const uint64_t number = value.get<uint64_t>();
    if (number == 0) Refuse(field, "is 0: it must be a positive whole number");
    if (number > most) Refuse(field, "is " + value.dump() + ", past " + std::to_string(most));
    return static_cast<uint32_t>(number);
  }
  /// A finite number > 0; `fallback` when absent.
  double Positive(const std::string& field, std::optional<double> fallback = std::nullopt) const {
    if (!Has(field)) {
      if (fallback) return *fallback;
      Refuse(field, "is missing");
    }
    const Json& value = object_.at(field);
    if (!value.is_number()) Refuse(field, "is " + value.dump() + ", not a number");
    const double number = value.get<double>();
    if (!std::isfinite(number) || number <= 0) {
      Refuse(field, "is " + value.dump() + ": it must be a positive number");
    }
    return number;
  }
  bool Flag(const std::string& field, bool fallback) const {
    if (!Has(field)) return fallback;
    const Json& value = object_.at(field);
    if (!value.is_boolean()) Refuse(field, "is " + value.dump() + ", not true or false");
    return value.get<bool>();
  }
  std::string Text(const std::string& field) const {
    if (!Has(field)) Refuse(field, "is missing");
    const Json& value = object_.at(field);
    if (!value.is_string()) Refuse(field, "is " + value.dump() + ", not a string");
    return value.get<std::string>();
  }

 private:
  const Json& object_;
  const std::string& source_;
  std::string prefix_;
};

constexpr uint64_t kMostSize = uint64_t{1} << 20;   // hidden, heads, head_dim, intermediate
constexpr uint64_t kMostVocab = uint64_t{1} << 24;  // tokens
constexpr uint64_t kMostLayers = 1024;

reference::Llama3RopeScaling ReadRopeScaling(const Json& object, const std::string& source) {
  if (!object.is_object()) {
    throw UsageError(source + ": rope_scaling is " + object.dump() + ", not an object");
  }
  const ConfigFields f(object, source, "rope_scaling.");
  const std::string type = f.Has("rope_type") ? f.Text("rope_type") : f.Text("type");
  if (type != "llama3") {
    f.Refuse(f.Has("rope_type") ? "rope_type" : "type",
             "is \"" + type + "\": refract applies only \"llama3\" scaling");
  }
  reference::Llama3RopeScaling scaling{
      .factor = f.Positive("factor"),
      .low_freq_factor = f.Positive("low_freq_factor"),
      .high_freq_factor = f.Positive("high_freq_factor"),
      .original_max_position = f.Count("original_max_position_embeddings", kMostSize)};
  if (scaling.high_freq_factor <= scaling.low_freq_factor) {
    f.Refuse("high_freq_factor", "must be above low_freq_factor");
  }
  return scaling;
}

}  // namespace

std::vector<std::string> BuiltinModelNames() {
  std::vector<std::string> names;
  for (const Builtin& builtin : kBuiltins) names.emplace_back(builtin.name);
  return names;
}

DecoderShape ParseModelConfig(std::string_view text, const std::string& source) {
  if (auto problem = profile::document::TextProblem(text)) {
    throw UsageError(source + ": " + *problem);
  }
  Json config;
  try {
    config = Json::parse(profile::document::WithoutByteOrderMark(text));
  } catch (const Json::exception& error) {
    throw UsageError(source + " is no JSON (" + error.what() + ")");
  }
  if (!config.is_object()) throw UsageError(source + " holds no JSON object");
  const ConfigFields f(config, source);
  DecoderShape shape;
  shape.name = source;
  shape.family = f.Text("model_type");
  if (shape.family != "qwen2" && shape.family != "llama" && shape.family != "mistral") {
    f.Refuse("model_type", "is \"" + shape.family +
                               "\": refract decode runs the qwen2, llama and mistral families");
  }
  if (f.Has("hidden_act") && f.Text("hidden_act") != "silu") {
    f.Refuse("hidden_act", "is \"" + f.Text("hidden_act") + "\": the family's MLP is silu");
  }
  shape.hidden = f.Count("hidden_size", kMostSize);
  shape.layers = f.Count("num_hidden_layers", kMostLayers);
  shape.heads = f.Count("num_attention_heads", kMostSize);
  shape.kv_heads = f.Count("num_key_value_heads", kMostSize, shape.heads);
  if (shape.heads % shape.kv_heads != 0) {
    f.Refuse("num_attention_heads", "(" + std::to_string(shape.heads) +
                                        ") is not a multiple of num_key_value_heads (" +
                                        std::to_string(shape.kv_heads) + ")");
  }
  if (!f.Has("head_dim") && shape.hidden % shape.heads != 0) {
    f.Refuse("hidden_size", "is not a multiple of num_attention_heads, and no head_dim is given");
  }
  shape.head_dim = f.Count("head_dim", kMostSize, shape.hidden / shape.heads);
  shape.intermediate = f.Count("intermediate_size", kMostSize);
  shape.vocab = f.Count("vocab_size", kMostVocab);
  shape.rope_theta = f.Positive("rope_theta", 10000.0);
  shape.rms_eps = f.Positive("rms_norm_eps", 1e-6);
  shape.tied_embeddings = f.Flag("tie_word_embeddings", false);
  // Qwen2's q, k and v projections always carry biases; Llama's when attention_bias says so.
  shape.attention_bias = shape.family == "qwen2" ? true : f.Flag("attention_bias", false);
  if (f.Has("rope_scaling"))
    shape.rope_scaling = ReadRopeScaling(config.at("rope_scaling"), source);
  const bool windowed = shape.family == "mistral" || f.Flag("use_sliding_window", false);
  if (windowed && f.Has("sliding_window")) {
    shape.attention_window = f.Count("sliding_window", uint64_t{1} << 31);
  }
  if (const std::string problem = ShapeProblem(shape); !problem.empty()) {
    throw UsageError(source + ": " + problem);
  }
  return shape;
}

DecoderShape LoadModel(const std::string& name_or_path) {
  for (const Builtin& builtin : kBuiltins) {
    if (name_or_path == builtin.name) {
      DecoderShape shape = ParseModelConfig(BuiltinConfig(builtin), std::string(builtin.name));
      shape.name = builtin.name;
      return shape;
    }
  }
  const bool looks_like_file =
      name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".json");
  if (!looks_like_file) {
    std::string names;
    for (const std::string& name : BuiltinModelNames()) names += (names.empty() ? "" : ", ") + name;
    throw UsageError("--model '" + name_or_path + "' is no built-in model (" + names +
                     ") and no config.json path");
  }
  profile::document::FileText file = profile::document::ReadFile(name_or_path);
  if (!file.problem.empty()) {
    throw UsageError("--model '" + name_or_path + "': " + file.problem);
  }
  reference::DecoderShape shape = ParseModelConfig(file.text, name_or_path);
  // A config's name: its folder's for a config.json (a model's checkpoint folder), else its own.
  const std::filesystem::path path(name_or_path);
  const std::filesystem::path folder = path.parent_path().filename();
  shape.name =
      path.filename() == "config.json" && !folder.empty() ? folder.string() : path.stem().string();
  return shape;
}

std::string ShapeProblem(const DecoderShape& s) {
  if (s.hidden % 32 != 0)
    return "hidden_size " + std::to_string(s.hidden) + " is no multiple of 32 (q4 blocks)";
  if (s.intermediate % 32 != 0) {
    return "intermediate_size " + std::to_string(s.intermediate) +
           " is no multiple of 32 (q4 blocks)";
  }
  if (s.QRows() % 32 != 0) {
    return "num_attention_heads × head_dim (" + std::to_string(s.QRows()) +
           ") is no multiple of 32 (q4 blocks)";
  }
  if (s.head_dim % 4 != 0 || s.head_dim > 512) {
    return "head_dim " + std::to_string(s.head_dim) + " is no multiple of 4 up to 512";
  }
  if (s.group() > 8) {
    return "num_attention_heads / num_key_value_heads is " + std::to_string(s.group()) +
           ": the decode attention kernel serves at most 8 query heads a KV head";
  }
  return "";
}

double WeightBytesPerToken(const DecoderShape& s) {
  // A q4 row of K values: K / 32 blocks of 16 bytes and one f32 scale each.
  auto matrix = [](double n, double k) { return n * (k / 32) * (16 + 4); };
  const double layer = matrix(s.QkvRows(), s.hidden) + matrix(s.hidden, s.QRows()) +
                       matrix(2.0 * s.intermediate, s.hidden) + matrix(s.hidden, s.intermediate);
  return s.layers * layer + matrix(s.vocab, s.hidden) + matrix(1, s.hidden);
}

double CacheBytesPerToken(const DecoderShape& s, uint32_t kv_len) {
  return 2.0 * s.layers * kv_len * s.KvRows() * 4;
}

std::optional<double> KindBytesPerToken(const DecoderShape& s, const std::string& kind,
                                        uint32_t kv_len, bool q8, uint64_t dispatches) {
  auto matrix = [](double n, double k) { return n * (k / 32) * (16 + 4); };  // q4 blocks, scales
  auto f32 = [](double values) { return 4 * values; };
  // An activation a q8 GEMV reads: a byte a value and (d, Σq) a block of 32; else f32.
  auto input = [&](double values) { return q8 ? values + values / 32 * 8 : f32(values); };
  const double layers = s.layers, hidden = s.hidden, inter = s.intermediate;
  const double qkv = s.QkvRows(), q = s.QRows();
  // x and the norm's weight in, the normed row out: a dispatch.
  if (kind == "norm") return static_cast<double>(dispatches) * (2 * f32(hidden) + input(hidden));
  // a and b in, their sum h out, the weight in, the normed row out: a dispatch.
  if (kind == "add-norm")
    return static_cast<double>(dispatches) * (4 * f32(hidden) + input(hidden));
  if (kind == "qkv") return layers * (matrix(qkv, hidden) + input(hidden) + f32(qkv));
  // the projection and the bias in, q and the new cache row out.
  if (kind == "rope-kv") return layers * 3 * f32(qkv);
  // the residual's two addends, their sum and the norm's weight, the weights; q and the new cache
  // row out (the codes stay in the workgroup).
  if (kind == "norm-qkv-rope-kv") {
    return layers * (matrix(qkv, hidden) + 4 * f32(hidden) + 2 * f32(qkv));
  }
  // every key and value of the cache, q in, the attended row out.
  if (kind == "attention")
    return layers * (2 * f32(static_cast<double>(kv_len) * s.KvRows()) + 2 * f32(q));
  // merge-o-proj, merge-o-heads: the same, attention's output made from its split partials
  // (their read, and the heads' fixed-point shares, added in the L2, are the design's, not a
  // bound of the step's).
  if (kind == "o-proj" || kind == "merge-o-proj" || kind == "merge-o-heads") {
    return layers * (matrix(hidden, q) + f32(q) + f32(hidden));
  }
  if (kind == "gate-up")
    return layers * (matrix(2 * inter, hidden) + input(hidden) + f32(2 * inter));
  if (kind == "silu-mul") return layers * (f32(2 * inter) + input(inter));
  if (kind == "norm-gate-up-silu") {
    return layers * (matrix(2 * inter, hidden) + 4 * f32(hidden) + input(inter));
  }
  if (kind == "down") return layers * (matrix(hidden, inter) + input(inter) + f32(hidden));
  // norm-gate-up-silu's reads and the down weights; the down projection out (its fixed-point
  // shares, added in the L2, are the design's).
  if (kind == "norm-gate-up-down") {
    return layers * (matrix(2 * inter, hidden) + 4 * f32(hidden) + matrix(hidden, inter) +
                     f32(hidden));
  }
  // lm-head-argmax: the same, its partials a few bytes a workgroup more.
  if (kind == "lm-head" || kind == "lm-head-argmax") {
    return matrix(s.vocab, hidden) + input(hidden) + f32(s.vocab);
  }
  // the pick's embedding row of the next token (its q4 row in, the step's input out).
  const double embedding = matrix(1, hidden) + f32(hidden);
  if (kind == "argmax") return f32(s.vocab) + embedding;
  if (kind == "argmax-pick") return embedding;
  return std::nullopt;
}

}  // namespace refract::decode
