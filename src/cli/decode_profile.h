// `refract decode --profile FILE`: each GEMV of the decode step runs with the profile's winner
// for this adapter, its kernel (matmul-q4, variant tuned or tuned-q8; the fused GEMVs: qkv-rope,
// gate-up-silu or lm-head-argmax, variant tuned, as `refract sweep --kernel` sweeps the kernels
// suite's rows) and its exact shape, where the store holds a fresh entry of it that means
// something for the op; every GEMV says where its configuration came from.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "decode/decode_engine.h"
#include "gpu/context.h"
#include "refract/profile.h"

namespace refract::cli {

struct DecodeGemvChoices {
  std::map<decode::GemvKey, ops::GemvConfig> configs;  ///< the GEMVs a profile entry configures
  /// One line a GEMV of the step: "down 896 x 4864 q8: profile: …" or "…: built-in default: …".
  std::vector<std::string> sources;
};

/// The configurations `store` gives the GEMVs `keys` of `shape`'s step on `context`'s adapter: an
/// entry of the exact shape (m = 1, n, k; a fused GEMV's row adds the model's dimensions) whose
/// params the op's axes allow (a fused GEMV: that its kernel fits), that compiles here, whose
/// measurement compiled every kernel file the op compiles and none of whose files changed since
/// (nor Dawn, nor the axes); the others keep their default, their line saying why.
DecodeGemvChoices ChooseDecodeGemvs(const profile::Store& store, gpu::Context& context,
                                    const reference::DecoderShape& shape,
                                    const std::vector<decode::GemvKey>& keys);

}  // namespace refract::cli
