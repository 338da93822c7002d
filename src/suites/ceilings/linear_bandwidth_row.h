// read-linear and write-linear (docs/CEILINGS.md "Bandwidth"): one pass over a large buffer,
// grid-stride, vec4 per access; reads with 1024 workgroups of 256 threads, writes with 16,384.
#pragma once

#include <cstdint>
#include <optional>

#include "bench/benchmark.h"

namespace refract::suites::ceilings {

enum class LinearAccess { kRead, kWrite };

/// The buffer a bandwidth row uses when none is asked for: the largest the device binds, up to
/// 1 GiB (a 64 MiB buffer fits the ~60 MB L2 of big GPUs and would report cache speed) [bytes].
uint64_t DefaultBandwidthBufferBytes(const gpu::Context& context);

/// Params: buffer_bytes (after Prepare).
class LinearBandwidthRow : public bench::Benchmark {
 public:
  /// `buffer_bytes`: the timed buffer's size, or nothing for DefaultBandwidthBufferBytes.
  LinearBandwidthRow(LinearAccess access, std::optional<uint64_t> buffer_bytes);

  const bench::BenchmarkInfo& info() const override { return info_; }
  std::optional<std::string> MissingRequirement(const gpu::Context& context) const override;
  void Prepare(gpu::Context& context) override;
  VerificationRecord Verify(gpu::Context& context) override;
  void Release() override;

  /// Bytes one dispatch moves: the whole buffer, read or written once.
  double WorkPerDispatch() const override { return static_cast<double>(buffer_bytes_); }
  std::span<const gpu::Dispatch> Dispatches() const override {
    return std::span<const gpu::Dispatch>(&dispatch_, 1);
  }

 private:
  LinearAccess access_;
  bench::BenchmarkInfo info_;
  std::optional<uint64_t> requested_bytes_;
  uint32_t workgroups_;  // a dispatch's workgroups of kBandwidthWorkgroupSize threads
  uint64_t buffer_bytes_ = 0;
  gpu::ComputePipeline pipeline_;
  gpu::Dispatch dispatch_;
};

}  // namespace refract::suites::ceilings
