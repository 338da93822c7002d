// Moving typed host data to and from GPU buffers, on top of Context.
#pragma once

#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "gpu/context.h"

namespace refract::gpu {

/// A buffer of `usage` | kUsageCopyDst holding `values` (padded to 4 bytes by Context).
template <typename T>
Buffer Upload(Context& context, std::span<const T> values, uint32_t usage, std::string_view label) {
  Buffer buffer = context.CreateBuffer(values.size_bytes(), usage | kUsageCopyDst, label);
  context.WriteBuffer(buffer, 0, std::as_bytes(values));
  return buffer;
}
template <typename T>
Buffer Upload(Context& context, const std::vector<T>& values, uint32_t usage,
              std::string_view label) {
  return Upload(context, std::span<const T>(values), usage, label);
}

/// A uniform buffer holding `params`: a struct laid out as the WGSL struct, 16-byte multiple.
template <typename T>
Buffer Uniform(Context& context, const T& params, std::string_view label = "params") {
  static_assert(sizeof(T) % 16 == 0, "uniform structs are bound in 16-byte units");
  return Upload(context, std::span<const T>(&params, 1), kUsageUniform, label);
}

/// Rewrites a uniform made by Uniform (the queue orders the write before later dispatches).
template <typename T>
void WriteUniform(Context& context, const Buffer& buffer, const T& params) {
  context.WriteBuffer(buffer, 0, std::as_bytes(std::span<const T>(&params, 1)));
}

/// The first `count` elements of `buffer` (which needs kUsageCopySrc); the whole buffer when
/// count is 0.
template <typename T>
std::vector<T> Download(Context& context, const Buffer& buffer, size_t count = 0) {
  const uint64_t bytes = count == 0 ? buffer.size() - buffer.size() % sizeof(T) : count * sizeof(T);
  std::vector<std::byte> raw = context.ReadBuffer(buffer, 0, bytes);
  std::vector<T> values(raw.size() / sizeof(T));
  std::memcpy(values.data(), raw.data(), values.size() * sizeof(T));
  return values;
}

}  // namespace refract::gpu
