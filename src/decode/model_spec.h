// Which network `refract decode` runs: a built-in name or a Hugging Face config.json of the
// Llama / Qwen2 / Mistral family, read into reference::DecoderShape. No GPU here.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/llm_decoder.h"

namespace refract::decode {

/// The built-in names: "qwen2.5-0.5b", "qwen2.5-1.5b", "llama-3.2-1b" (their published
/// config.json values).
std::vector<std::string> BuiltinModelNames();

/// The shape of a built-in model, or of the config.json at `name_or_path` (a name with no '/'
/// and no ".json" is a built-in). Throws UsageError naming the field for a config of another
/// family or with a value that means nothing (missing, not a whole positive number, heads not a
/// multiple of KV heads, a size refract's kernels cannot take), and naming the file for one that
/// cannot be read or is no JSON.
reference::DecoderShape LoadModel(const std::string& name_or_path);

/// The shape a config.json's text describes (`source` names it in errors).
reference::DecoderShape ParseModelConfig(std::string_view text, const std::string& source);

/// Why refract cannot run `shape`, or "": sizes the kernels need (hidden, intermediate and
/// heads · head_dim multiples of 32, head_dim a multiple of 4 up to 512, at most 8 query heads a
/// KV head).
std::string ShapeProblem(const reference::DecoderShape& shape);

/// Bytes of q4 weights one decode step reads (every projection, and the LM head) [bytes]:
/// the MatMulNBits blocks (16 bytes a block of 32) and their f32 scales, plus the embedding row.
double WeightBytesPerToken(const reference::DecoderShape& shape);

/// Bytes of KV cache one step reads at `kv_len` positions (f32 keys and values, every layer).
double CacheBytesPerToken(const reference::DecoderShape& shape, uint32_t kv_len);

/// The bytes the step's dispatches of `kind` (DecodeEngine's kinds: norm, add-norm, qkv, rope-kv,
/// norm-qkv-rope-kv, attention, o-proj, gate-up, silu-mul, norm-gate-up-silu, down, lm-head,
/// argmax, lm-head-argmax, argmax-pick, merge-o-proj, merge-o-heads, norm-gate-up-down),
/// `dispatches` of them a token, must read and write a token at least, at a cache of `kv_len`
/// positions, with activations in f32 or (`q8`) as int8 blocks where the step quantizes them:
/// each weight once (q4 blocks and scales), the keys and values attention reads, each activation
/// in and out once — what a kind's bandwidth bound divides by the read rate.
/// Nothing for another kind.
std::optional<double> KindBytesPerToken(const reference::DecoderShape& shape,
                                        const std::string& kind, uint32_t kv_len, bool q8,
                                        uint64_t dispatches);

}  // namespace refract::decode
