// `refract decode --profile FILE`: each GEMV of the decode step runs with the profile's winner
// for this adapter, its kernel (matmul-q4, variant tuned or tuned-q8; the fused GEMVs: qkv-rope,
// gate-up-silu, gate-up-down or lm-head-argmax, variant tuned, as `refract sweep --kernel` sweeps
// the kernels suite's rows) and its exact shape, and decode attention with its row's winner
// (merge-o-heads or attention) at each context, where the store holds a fresh entry of it that
// means something for the op; every GEMV and each context's attention say where their
// configuration came from.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "decode/decode_engine.h"
#include "gpu/context.h"
#include "refract/profile.h"
#include "suites/decode/decode_rows.h"

namespace refract::cli {

struct DecodeGemvChoices {
  std::map<decode::GemvKey, ops::GemvConfig> configs;  ///< the GEMVs a profile entry configures
  /// One line a GEMV of the step: "down 896 x 4864 q8: profile: …" or "…: built-in default: …".
  std::vector<std::string> sources;
};

/// Decode attention's configuration for one context of the step, and where it came from.
struct DecodeAttentionChoice {
  ops::Settings settings;  ///< EngineConfig::attention: the winner's axes but `splits`; {}: default
  std::string source;      ///< "decode attention at S = 1024: profile: …" or "…: built-in default: …"
};

/// The configurations `store` gives the GEMVs `keys` of `shape`'s step on `context`'s adapter: an
/// entry of the exact shape (m = 1, n, k; a fused GEMV's row adds the model's dimensions) whose
/// params the op's axes allow (a fused GEMV: that its kernel fits), that compiles here, whose
/// measurement compiled every kernel file the op compiles and none of whose files changed since
/// (nor Dawn, nor the axes); the others keep their default, their line saying why.
DecodeGemvChoices ChooseDecodeGemvs(const profile::Store& store, gpu::Context& context,
                                    const reference::DecoderShape& shape,
                                    const std::vector<decode::GemvKey>& keys);

/// The configuration `store` gives decode attention in the step of `request` (its context S,
/// activations and fusion): the winner of the kernels suite's row the step's attention is swept
/// as — `merge-o-heads` where the step merges by head, else the `attention` decode row — at this
/// adapter and the exact shape (the model's heads and head dim, S), under the same rules as a
/// GEMV's entry: params the axes allow, a configuration that the step's cache (its capacity,
/// the split's `splits` sized for it) takes and that compiles here, a stamp that is fresh.
DecodeAttentionChoice ChooseDecodeAttention(const profile::Store& store, gpu::Context& context,
                                            const reference::DecoderShape& shape,
                                            const suites::decode::DecodeRequest& request);

}  // namespace refract::cli
