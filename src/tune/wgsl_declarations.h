// What a WGSL module declares that a tuning spec names: its `override` constants, its resource
// bindings and its compute entry points, each with its line, read from the text (comments
// skipped) so that a spec that names something the shader lacks is refused before anything
// compiles. A recognizer of declarations, not a WGSL parser: the compiler (Dawn's Tint) still
// judges the module.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace refract::tune {

/// A `var` with @group and @binding.
struct WgslBinding {
  std::string name;
  std::string address_space;  ///< "storage", "uniform", "" (a texture, a sampler)
  std::string access;         ///< "read", "read_write" ("read" when a storage var states none)
  uint32_t line = 0;          ///< 1-based
};

struct WgslDeclarations {
  std::map<std::string, uint32_t> overrides;  ///< name → line
  std::map<std::pair<uint32_t, uint32_t>, WgslBinding> bindings;  ///< (group, binding) → var
  std::map<std::string, uint32_t> entry_points;  ///< @compute functions: name → line
};

/// The declarations of `text`.
WgslDeclarations ScanWgsl(std::string_view text);

}  // namespace refract::tune
