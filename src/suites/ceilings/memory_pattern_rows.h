// read-gather-* and write-scatter-* (docs/CEILINGS.md "Bandwidth"): random access within a window
// of 16 KiB, 4 MiB or 64 MiB, to show what leaving the caches and coalescing behind costs.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bench/benchmark.h"
#include "suites/ceilings/bandwidth_common.h"
#include "suites/ceilings/catalog.h"

namespace refract::suites::ceilings {

/// The three windows of the gather and scatter rows [bytes].
inline constexpr uint64_t kMemoryPatternWindows[] = {uint64_t{16} << 10, uint64_t{4} << 20,
                                                     uint64_t{64} << 20};

/// read-gather-<window>: the read-linear grid (1024 × 256 threads); each thread does `loads`
/// LCG-indexed vec4 loads within the window, loads = traffic / (262,144 × 16) where the traffic
/// is the bandwidth buffer size (DefaultBandwidthBufferBytes or --buffer-mib) but at least the
/// window. Only the window is allocated: the mask never reaches past it. One dispatch counts
/// threads × loads × 16 bytes (= the traffic, rounded down to a multiple of 4 MiB).
/// Params: threads, loads_per_thread (after Prepare), window_bytes.
class GatherRow : public bench::Benchmark {
 public:
  /// `window_bytes`: a power of two ≥ 16; `traffic_bytes`: bytes a dispatch loads, or nothing
  /// for DefaultBandwidthBufferBytes.
  GatherRow(uint64_t window_bytes, std::optional<uint64_t> traffic_bytes);

  const bench::BenchmarkInfo& info() const override { return info_; }
  std::optional<std::string> MissingRequirement(const gpu::Context& context) const override;
  void Prepare(gpu::Context& context) override;
  /// Runs the prepared kernel on the prepared (filled) window with all 262,144 threads and 3
  /// loads each and compares every thread's sum with reference::GatherModel within 1e-6
  /// relative.
  VerificationRecord Verify(gpu::Context& context) override;
  void Release() override;

  /// Bytes one dispatch loads: threads × loads × 16.
  double WorkPerDispatch() const override;
  std::span<const gpu::Dispatch> Dispatches() const override {
    return std::span<const gpu::Dispatch>(&dispatch_, 1);
  }

 private:
  bench::BenchmarkInfo info_;
  uint64_t window_bytes_;
  std::optional<uint64_t> requested_traffic_;
  uint32_t loads_ = 0;
  gpu::Buffer data_;
  gpu::Dispatch dispatch_;
};

/// write-scatter-<window>: every vec4 i of the window is stored once, as vec4(f32(i)), at
/// (i × 2654435761 + 1013904223) & mask; grid-stride over i with min(1024, window / 4 KiB)
/// workgroups of 256 threads. One dispatch counts window bytes. The buffer is the window.
/// Params: vec4s, window_bytes.
class ScatterRow : public bench::Benchmark {
 public:
  explicit ScatterRow(uint64_t window_bytes);

  const bench::BenchmarkInfo& info() const override { return info_; }
  std::optional<std::string> MissingRequirement(const gpu::Context& context) const override;
  void Prepare(gpu::Context& context) override;
  /// Fills the window with ceil_fill_vec4's pattern, runs the prepared dispatch once and checks
  /// that every element holds the index that maps to it (reference::ScatterModel, exact).
  VerificationRecord Verify(gpu::Context& context) override;
  void Release() override;

  double WorkPerDispatch() const override { return static_cast<double>(window_bytes_); }
  std::span<const gpu::Dispatch> Dispatches() const override {
    return std::span<const gpu::Dispatch>(&dispatch_, 1);
  }

 private:
  bench::BenchmarkInfo info_;
  uint64_t window_bytes_;
  gpu::Buffer data_;
  gpu::Dispatch dispatch_;
};

/// The gather and scatter rows, 16 KiB, 4 MiB, 64 MiB each, gathers first.
std::vector<std::unique_ptr<bench::Benchmark>> MakeMemoryPatternRows(const CatalogOptions& options);

}  // namespace refract::suites::ceilings
