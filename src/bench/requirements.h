// What a benchmark needs from the device (features, WGSL language features), checked and said
// in words the same way by every suite.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpu/context.h"

namespace refract::bench {

struct Requirements {
  std::vector<gpu::Feature> features;          ///< device features, e.g. kShaderF16
  std::vector<std::string> language_features;  ///< e.g. "packed_4x8_integer_dot_product"
};

/// "needs shader-f16, which this device lacks" for the first thing missing; nothing when the
/// context has everything.
std::optional<std::string> MissingRequirement(const gpu::Context& context,
                                              const Requirements& requirements);

/// The needs in words for --list: "shader-f16, subgroups" ("" when none).
std::string NeedsText(const Requirements& requirements);

}  // namespace refract::bench
