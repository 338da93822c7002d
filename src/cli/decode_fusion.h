// `refract decode --fusion`: which of the step's fused kernels a flag value asks for.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "decode/decode_engine.h"

namespace refract::cli {

/// The EngineConfig fields --fusion sets (q8 only; the engine falls back where the device
/// refuses a fused kernel).
struct DecodeFusion {
  bool fuse = false;                                       ///< EngineConfig::fuse
  decode::MergeFusion merge = decode::MergeFusion::kAuto;  ///< EngineConfig::merge
  bool fuse_down = false;                                  ///< EngineConfig::fuse_down
};

/// --fusion's values: auto, on, own-merge, o-heads, o-merge, down, off.
const std::vector<std::string>& DecodeFusionChoices();

/// `flag` is one of DecodeFusionChoices() (UsageError otherwise).
/// auto: down on a GPU, off on a CPU adapter (`cpu_adapter`), where the fused kernels measured
/// slower; the others name the same design on every adapter.
DecodeFusion ChooseDecodeFusion(std::string_view flag, bool cpu_adapter);

}  // namespace refract::cli
