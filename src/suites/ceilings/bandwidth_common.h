// Helpers the bandwidth rows share: the grid of CEILINGS.md "Bandwidth", the deterministic fill
// (ceil_fill_vec4.wgsl) and its CPU model, the count uniform, read-back and mismatch reports.
#pragma once

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/context.h"

namespace refract::suites::ceilings {

inline constexpr uint32_t kBandwidthWorkgroupSize = 256;  ///< the kernels' @workgroup_size
inline constexpr uint32_t kBandwidthWorkgroups = 1024;    ///< CEILINGS.md: 1024 workgroups
inline constexpr uint32_t kBandwidthThreads = kBandwidthWorkgroupSize * kBandwidthWorkgroups;
inline constexpr uint64_t kVec4Bytes = 16;  ///< one vec4<f32> [bytes]

/// A 16-byte uniform buffer holding { count, 0, 0, 0 } (the Params of the bandwidth kernels).
gpu::Buffer MakeCountParams(gpu::Context& context, uint32_t count);
/// Rewrites such a buffer's count (the queue orders it before later dispatches).
void WriteCountParams(gpu::Context& context, const gpu::Buffer& params, uint32_t count);

/// Fills the first `count` vec4s of `data` on the GPU with the pattern of ceil_fill_vec4.wgsl.
/// `data` needs kUsageStorage and room for `count` vec4s.
void FillVec4(gpu::Context& context, const gpu::Buffer& data, uint32_t count);

/// CPU model of ceil_fill_vec4.wgsl's element i: four floats, each exact, in [0, 1).
void FillValue(uint32_t i, float out[4]);

/// The whole buffer read back as floats (the buffer needs kUsageCopySrc).
std::vector<float> ReadFloats(gpu::Context& context, const gpu::Buffer& buffer);

/// Collects mismatches of a check and throws VerificationError naming the first three.
class MismatchLog {
 public:
  explicit MismatchLog(std::string id) : id_(std::move(id)) {}
  /// Records that output `index` is `gpu` where the CPU model says `cpu`.
  void Note(size_t index, double gpu, double cpu);
  size_t count() const { return mismatches_; }
  /// Throws VerificationError ("<id>: N of <total> outputs disagree…") when anything was noted.
  void ThrowIfAny(size_t total, const std::string& context = "") const;

 private:
  std::string id_;
  size_t mismatches_ = 0;
  std::ostringstream first_;
};

}  // namespace refract::suites::ceilings
