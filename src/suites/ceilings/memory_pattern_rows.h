// read-gather-* and write-scatter-* (CEILINGS.md "Bandwidth"): random access within a window of
// 16 KiB, 4 MiB or 64 MiB, to show what leaving the caches and coalescing behind costs.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "suites/ceilings/bandwidth_common.h"
#include "suites/ceilings/catalog.h"
#include "suites/ceilings/ceiling_row.h"

namespace refract::suites::ceilings {

/// The three windows of the gather and scatter rows [bytes].
inline constexpr uint64_t kMemoryPatternWindows[] = {uint64_t{16} << 10, uint64_t{4} << 20,
                                                     uint64_t{64} << 20};

/// read-gather-<window>: the read-linear grid (1024 × 256 threads); each thread does `loads`
/// LCG-indexed vec4 loads within the window, loads = traffic / (262,144 × 16) where the traffic
/// is the bandwidth buffer size (DefaultBandwidthBufferBytes or --buffer-mib) but at least the
/// window. Only the window is allocated: the mask never reaches past it. One dispatch counts
/// threads × loads × 16 bytes (= the traffic, rounded down to a multiple of 4 MiB).
class GatherRow : public CeilingRow {
 public:
  /// `window_bytes`: a power of two ≥ 16; `traffic_bytes`: bytes a dispatch loads, or nothing
  /// for DefaultBandwidthBufferBytes.
  GatherRow(uint64_t window_bytes, std::optional<uint64_t> traffic_bytes);

  const RowInfo& info() const override { return info_; }
  std::optional<std::string> MissingRequirement(const gpu::Context& context) const override;
  void Prepare(gpu::Context& context) override;
  /// Runs the prepared kernel on the prepared (filled) window with all 262,144 threads and 3
  /// loads each and compares every thread's sum with the CPU model within 1e-6 relative.
  void Verify(gpu::Context& context) override;
  void Release() override;
  uint64_t Rows() const override { return kBandwidthThreads; }  ///< threads
  uint64_t Cols() const override { return loads_; }  ///< loads a thread; 0 before Prepare
  uint64_t BufferBytes() const override { return window_bytes_; }  ///< allocated [bytes]

  /// Bytes one dispatch loads: threads × loads × 16.
  double WorkPerDispatch() const override;
  std::span<const gpu::Dispatch> Dispatches() const override {
    return std::span<const gpu::Dispatch>(&dispatch_, 1);
  }

  /// Verify against a model of another window (`model_window_bytes`); Verify passes the row's
  /// own. Tests use it to prove the check catches a kernel with the wrong mask.
  void VerifyAgainstWindow(gpu::Context& context, uint64_t model_window_bytes);

 private:
  RowInfo info_;
  uint64_t window_bytes_;
  std::optional<uint64_t> requested_traffic_;
  uint32_t loads_ = 0;
  gpu::Buffer data_;
  gpu::Dispatch dispatch_;
};

/// CPU model of ceil_read_gather.wgsl over a window filled by ceil_fill_vec4.wgsl: thread t's
/// output for t < threads, with `loads` loads and mask = window_vec4s − 1.
std::vector<float> GatherModel(uint32_t threads, uint32_t loads, uint32_t window_vec4s);

/// write-scatter-<window>: every vec4 i of the window is stored once, as vec4(f32(i)), at
/// (i × 2654435761 + 1013904223) & mask; grid-stride over i with min(1024, window / 4 KiB)
/// workgroups of 256 threads. One dispatch counts window bytes. The buffer is the window.
class ScatterRow : public CeilingRow {
 public:
  explicit ScatterRow(uint64_t window_bytes);

  const RowInfo& info() const override { return info_; }
  std::optional<std::string> MissingRequirement(const gpu::Context& context) const override;
  void Prepare(gpu::Context& context) override;
  /// Fills the window with ceil_fill_vec4's pattern, runs the prepared dispatch once and checks
  /// with CheckScatterOutput that every element holds the index that maps to it (exact).
  void Verify(gpu::Context& context) override;
  void Release() override;
  uint64_t Rows() const override { return window_bytes_ / 16; }  ///< vec4s stored
  uint64_t BufferBytes() const override { return window_bytes_; }

  double WorkPerDispatch() const override { return static_cast<double>(window_bytes_); }
  std::span<const gpu::Dispatch> Dispatches() const override {
    return std::span<const gpu::Dispatch>(&dispatch_, 1);
  }

 private:
  RowInfo info_;
  uint64_t window_bytes_;
  gpu::Buffer data_;
  gpu::Dispatch dispatch_;
};

/// Checks a window (4 floats a vec4) written by ceil_write_scatter.wgsl: the CPU walks i over
/// the window, checks that (i × 2654435761 + 1013904223) & mask hits every element once, and
/// that element holds f32(i) in all four lanes (exact). Throws VerificationError naming `id`
/// and the first mismatching floats.
void CheckScatterOutput(const std::string& id, std::span<const float> values);

/// The gather and scatter rows, 16 KiB, 4 MiB, 64 MiB each, gathers first.
std::vector<std::unique_ptr<CeilingRow>> MakeMemoryPatternRows(const CatalogOptions& options);

}  // namespace refract::suites::ceilings
