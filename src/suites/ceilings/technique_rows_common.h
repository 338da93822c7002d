// Helpers the technique row families share: uploads, read-backs, compilation and the mismatch
// log that turns a failed comparison into a VerificationError. Internal to the ceilings suite.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpu/context.h"

namespace refract::suites::ceilings::technique {

/// A buffer of `usage` | kUsageCopyDst holding `values`.
template <typename T>
gpu::Buffer Upload(gpu::Context& context, std::span<const T> values, uint32_t usage,
                   std::string_view label) {
  gpu::Buffer buffer = context.CreateBuffer(values.size_bytes(), usage | gpu::kUsageCopyDst, label);
  context.WriteBuffer(buffer, 0, std::as_bytes(values));
  return buffer;
}

/// A uniform buffer holding `params` (a struct of 16-byte multiple size, as WGSL lays it out).
template <typename T>
gpu::Buffer Uniform(gpu::Context& context, const T& params) {
  static_assert(sizeof(T) % 16 == 0, "uniform structs are bound in 16-byte units");
  return Upload(context, std::span<const T>(&params, 1), gpu::kUsageUniform, "params");
}

/// The whole buffer (which needs kUsageCopySrc) as elements of T.
template <typename T>
std::vector<T> Download(gpu::Context& context, const gpu::Buffer& buffer) {
  std::vector<std::byte> raw = context.ReadBuffer(buffer, 0, buffer.size());
  std::vector<T> values(raw.size() / sizeof(T));
  std::memcpy(values.data(), raw.data(), values.size() * sizeof(T));
  return values;
}

/// Compiles `entry_point` of src/kernels/<kernel>.wgsl with the given override constants.
gpu::ComputePipeline Compile(gpu::Context& context, std::string_view kernel,
                             std::string_view entry_point, const std::string& label,
                             std::map<std::string, double> constants = {});

/// Collects the outputs that disagree with the CPU model and throws one VerificationError
/// naming the first three.
class MismatchLog {
 public:
  /// `id`: the row; `what`: what an index names ("pixel", "segment", "bin", …).
  MismatchLog(std::string id, std::string what) : id_(std::move(id)), what_(std::move(what)) {}

  void Note(size_t index, double gpu, double cpu);
  /// Throws VerificationError when any output was noted; `total` outputs were compared.
  void ThrowIfAny(size_t total) const;

  /// Compares element by element; sizes must agree (else one mismatch at the shorter size).
  template <typename T>
  void CompareExact(std::span<const T> gpu, std::span<const T> cpu) {
    if (gpu.size() != cpu.size()) {
      Note(std::min(gpu.size(), cpu.size()), static_cast<double>(gpu.size()),
           static_cast<double>(cpu.size()));
      return;
    }
    for (size_t i = 0; i < gpu.size(); ++i) {
      if (gpu[i] != cpu[i]) Note(i, static_cast<double>(gpu[i]), static_cast<double>(cpu[i]));
    }
  }

 private:
  std::string id_;
  std::string what_;
  size_t mismatches_ = 0;
  std::ostringstream first_;
};

}  // namespace refract::suites::ceilings::technique
