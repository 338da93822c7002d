// How the tuning spec's readers refuse a field (internal to tune/): a UsageError "<field>: <why>".
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "base/error.h"

namespace refract::tune {

[[noreturn]] inline void Refuse(const std::string& field, const std::string& problem) {
  throw UsageError(field + ": " + problem);
}

/// "@group(0) @binding(2)".
inline std::string BindingName(uint32_t group, uint32_t binding) {
  return fmt::format("@group({}) @binding({})", group, binding);
}

}  // namespace refract::tune
