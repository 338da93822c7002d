// Which network refract decode runs: the built-in names and a config.json of the Llama / Qwen2 /
// Mistral family, every refusal naming its field.
#include <gtest/gtest.h>

#include <string>

#include "base/error.h"
#include "decode/model_spec.h"

namespace refract::decode {
namespace {

// Qwen2.5-0.5B's config.json, reduced to the fields read (Hugging Face Hub, Qwen/Qwen2.5-0.5B).
const std::string kQwen = R"({"model_type": "qwen2", "hidden_size": 896,
  "num_hidden_layers": 24, "num_attention_heads": 14, "num_key_value_heads": 2,
  "intermediate_size": 4864, "vocab_size": 151936, "rope_theta": 1000000.0,
  "rms_norm_eps": 1e-06, "tie_word_embeddings": true})";

/// kQwen with `field`'s value text replaced by `value` ("" removes the field).
std::string With(const std::string& field, const std::string& value) {
  std::string text = kQwen;
  const size_t at = text.find("\"" + field + "\"");
  EXPECT_NE(at, std::string::npos) << field;
  const size_t end = text.find_first_of(",}", at);
  const std::string replacement = value.empty() ? "\"unused\": 0" : "\"" + field + "\": " + value;
  text.replace(at, end - at, replacement);
  return text;
}

std::string Refusal(const std::string& text) {
  try {
    ParseModelConfig(text, "config.json");
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(DecodeModelSpec, BuiltinsStateTheirPublishedConfigs) {
  const reference::DecoderShape qwen = LoadModel("qwen2.5-0.5b");
  EXPECT_EQ(qwen.family, "qwen2");
  EXPECT_EQ(qwen.hidden, 896u);
  EXPECT_EQ(qwen.layers, 24u);
  EXPECT_EQ(qwen.group(), 7u);
  EXPECT_EQ(qwen.head_dim, 64u);
  EXPECT_TRUE(qwen.attention_bias);
  EXPECT_TRUE(qwen.tied_embeddings);
  EXPECT_EQ(qwen.attention_window, 0u);  // use_sliding_window is false
  const reference::DecoderShape qwen15 = LoadModel("qwen2.5-1.5b");
  EXPECT_EQ(qwen15.head_dim, 128u);
  EXPECT_EQ(qwen15.group(), 6u);
  const reference::DecoderShape llama = LoadModel("llama-3.2-1b");
  EXPECT_EQ(llama.family, "llama");
  EXPECT_FALSE(llama.attention_bias);
  EXPECT_EQ(llama.group(), 4u);
  ASSERT_TRUE(llama.rope_scaling.has_value());
  EXPECT_EQ(llama.rope_scaling->factor, 32.0);
  EXPECT_EQ(llama.rope_scaling->original_max_position, 8192u);
  EXPECT_EQ(llama.rms_eps, 1e-5);
}

TEST(DecodeModelSpec, QwenHalfBillionReadsAboutThreeHundredTenMegabytesAToken) {
  // The issue's figure for Qwen2.5-0.5B in q4 (blocks of 32, f32 scales), LM head included.
  const double bytes = WeightBytesPerToken(LoadModel("qwen2.5-0.5b"));
  EXPECT_GT(bytes, 300e6);
  EXPECT_LT(bytes, 320e6);
  // f32 keys and values at S = 1024: 24 layers × 2 × 1024 × 128 × 4 bytes, 25 MB.
  EXPECT_DOUBLE_EQ(CacheBytesPerToken(LoadModel("qwen2.5-0.5b"), 1024), 24.0 * 2 * 1024 * 128 * 4);
}

TEST(DecodeModelSpec, EachKindsBytesAddUpToTheStepsWeightsAndCache) {
  // The GEMV kinds read every weight once; attention the whole cache; the rest moves
  // activations only (f32 or int8 blocks), a few hundred kilobytes at most.
  const reference::DecoderShape qwen = LoadModel("qwen2.5-0.5b");
  for (bool q8 : {false, true}) {
    SCOPED_TRACE(q8 ? "q8" : "f32");
    // A dispatch of each norm kind; a layer's share of the rest.
    auto bytes = [&](const std::string& kind) {
      return KindBytesPerToken(qwen, kind, 1024, q8, 1).value();
    };
    double weights_and_activations = 0;
    // argmax-pick embeds the next token: the embedding's row.
    for (const char* kind : {"argmax-pick", "qkv", "o-proj", "gate-up", "down", "lm-head"}) {
      weights_and_activations += bytes(kind);
    }
    const double weights = WeightBytesPerToken(qwen);
    EXPECT_GT(weights_and_activations, weights);
    EXPECT_LT(weights_and_activations, weights * 1.01);
    const double cache = CacheBytesPerToken(qwen, 1024);
    EXPECT_GT(bytes("attention"), cache);
    EXPECT_LT(bytes("attention"), cache * 1.01);
    for (const char* kind : {"norm", "add-norm", "rope-kv", "silu-mul", "argmax"}) {
      EXPECT_GT(bytes(kind), 0) << kind;
      EXPECT_LT(bytes(kind), 2e6) << kind;
    }
    // A fused GEMV moves what the add-norm, the GEMV and the op after it would, less the round
    // trips of the normed row and of the GEMV's output through memory.
    const double layers = qwen.layers;
    const double normed = q8 ? qwen.hidden * (1 + 8.0 / 32) : 4.0 * qwen.hidden;
    EXPECT_NEAR(bytes("norm-qkv-rope-kv"),
                layers * bytes("add-norm") + bytes("qkv") + bytes("rope-kv") - layers * 2 * normed -
                    2 * 4.0 * qwen.QkvRows() * layers,
                1);
    EXPECT_NEAR(bytes("norm-gate-up-silu"),
                layers * bytes("add-norm") + bytes("gate-up") + bytes("silu-mul") -
                    layers * 2 * normed - 2 * 4.0 * 2 * qwen.intermediate * layers,
                1);
  }
  // q8 activations are a byte a value and 8 bytes a block of 32: the GEMVs' inputs shrink.
  EXPECT_LT(KindBytesPerToken(qwen, "down", 1024, true, 24).value(),
            KindBytesPerToken(qwen, "down", 1024, false, 24).value());
  // The norms move a row a dispatch, however many the step has.
  EXPECT_DOUBLE_EQ(KindBytesPerToken(qwen, "add-norm", 1024, true, 49).value(),
                   49 * KindBytesPerToken(qwen, "add-norm", 1024, true, 1).value());
  // A kind the step does not have (the advance and the embed, now the argmax's pick) has none.
  EXPECT_FALSE(KindBytesPerToken(qwen, "advance", 1024, true, 1).has_value());
  EXPECT_FALSE(KindBytesPerToken(qwen, "embed", 1024, true, 1).has_value());
}

TEST(DecodeModelSpec, AConfigReadsLikeTheBuiltin) {
  const reference::DecoderShape shape = ParseModelConfig(kQwen, "qwen/config.json");
  const reference::DecoderShape builtin = LoadModel("qwen2.5-0.5b");
  EXPECT_EQ(shape.hidden, builtin.hidden);
  EXPECT_EQ(shape.kv_heads, builtin.kv_heads);
  EXPECT_EQ(shape.vocab, builtin.vocab);
  EXPECT_EQ(shape.rope_theta, builtin.rope_theta);
}

TEST(DecodeModelSpec, EachRefusalNamesItsField) {
  EXPECT_NE(Refusal(With("hidden_size", "")).find("hidden_size is missing"), std::string::npos);
  EXPECT_NE(Refusal(With("num_hidden_layers", "-2")).find("num_hidden_layers is -2"),
            std::string::npos);
  EXPECT_NE(Refusal(With("vocab_size", "0")).find("vocab_size is 0"), std::string::npos);
  EXPECT_NE(Refusal(With("intermediate_size", "4864.5")).find("not a whole number"),
            std::string::npos);
  EXPECT_NE(Refusal(With("rope_theta", "-1")).find("rope_theta"), std::string::npos);
  EXPECT_NE(Refusal(With("model_type", "\"gpt2\"")).find("model_type is \"gpt2\""),
            std::string::npos);
  EXPECT_NE(Refusal(With("num_key_value_heads", "3")).find("not a multiple of"), std::string::npos);
  EXPECT_NE(Refusal(With("tie_word_embeddings", "\"yes\"")).find("tie_word_embeddings"),
            std::string::npos);
  EXPECT_NE(Refusal(With("intermediate_size", "4850"))
                .find("intermediate_size 4850 is no multiple of 32"),
            std::string::npos);
  EXPECT_NE(Refusal("[1, 2]").find("no JSON object"), std::string::npos);
  EXPECT_NE(Refusal("{").find("no JSON"), std::string::npos);
  const std::string scaled =
      With("rms_norm_eps", "1e-6, \"rope_scaling\": {\"rope_type\": \"yarn\", \"factor\": 4}");
  EXPECT_NE(Refusal(scaled).find("rope_scaling.rope_type"), std::string::npos);
}

TEST(DecodeModelSpec, MistralKeepsItsSlidingWindow) {
  std::string text = With("model_type", "\"mistral\"");
  text.insert(text.size() - 1, ", \"sliding_window\": 4096");
  EXPECT_EQ(ParseModelConfig(text, "m.json").attention_window, 4096u);
  // Qwen2 says sliding_window but does not use it unless use_sliding_window.
  std::string qwen = kQwen;
  qwen.insert(qwen.size() - 1, ", \"sliding_window\": 4096");
  EXPECT_EQ(ParseModelConfig(qwen, "q.json").attention_window, 0u);
}

TEST(DecodeModelSpec, AnUnknownNameIsNoFile) {
  EXPECT_THROW(LoadModel("qwen3-0.6b"), UsageError);
  EXPECT_THROW(LoadModel("/nonexistent/config.json"), UsageError);
}

}  // namespace
}  // namespace refract::decode
