#include "suites/ceilings/memory_pattern_rows.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "base/error.h"
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "kernels/embedded_kernels.h"
#include "reference/compare.h"
#include "reference/memory_pattern_models.h"
#include "suites/ceilings/linear_bandwidth_row.h"

namespace refract::suites::ceilings {
namespace {

// Verify's problem: every thread of the timed grid, 3 loads each (odd, so a kernel that ignores
// part of the loop bound disagrees), on the timed window.
constexpr uint32_t kVerifyLoads = 3;
// Bytes one load of every thread moves: 262,144 × 16 = 4 MiB [bytes].
constexpr uint64_t kBytesPerLoadRound = uint64_t{kBandwidthThreads} * kVec4Bytes;

/// "16kb", "4mb", "64mb".
std::string WindowName(uint64_t window_bytes) {
  if (window_bytes >= (uint64_t{1} << 20)) return std::to_string(window_bytes >> 20) + "mb";
  return std::to_string(window_bytes >> 10) + "kb";
}

/// "16 KiB", "4 MiB", "64 MiB".
std::string WindowText(uint64_t window_bytes) {
  if (window_bytes >= (uint64_t{1} << 20)) return std::to_string(window_bytes >> 20) + " MiB";
  return std::to_string(window_bytes >> 10) + " KiB";
}

void CheckWindow(const std::string& id, uint64_t window_bytes) {
  REFRACT_THROW_IF(window_bytes < kVec4Bytes || (window_bytes & (window_bytes - 1)) != 0 ||
                       window_bytes / kVec4Bytes > (uint64_t{1} << 24),
                   Error, id + ": the window must be a power of two between 16 bytes and 256 MiB");
}

std::optional<std::string> WindowMissing(const gpu::Context& context, uint64_t window_bytes) {
  uint64_t limit =
      std::min(context.limits().max_storage_buffer_binding_size, context.limits().max_buffer_size);
  if (window_bytes <= limit) return std::nullopt;
  return "a " + WindowText(window_bytes) +
         " window exceeds the device's storage binding limit of " + std::to_string(limit >> 20) +
         " MiB";
}

/// The pipeline-overridable window mask of the gather and scatter kernels.
gpu::ComputePipeline CompileWithMask(gpu::Context& context, const char* kernel,
                                     const std::string& label, uint32_t window_vec4s) {
  return context.CreateComputePipeline(
      {.wgsl = wgsl::KernelSource(kernel),
       .label = label,
       .constants = {{"mask", static_cast<double>(window_vec4s - 1)}}});
}

}  // namespace

// ---- gather ---------------------------------------------------------------------------------

GatherRow::GatherRow(uint64_t window_bytes, std::optional<uint64_t> traffic_bytes)
    : window_bytes_(window_bytes), requested_traffic_(traffic_bytes) {
  info_ = {"read-gather-" + WindowName(window_bytes), "bandwidth", "B/s", "",
           "LCG-random vec4 loads within a " + WindowText(window_bytes) +
               " window, 16 a thread at 64 MiB; bytes = the bandwidth buffer size (at least the "
               "window), only the window allocated"};
  CheckWindow(info_.id, window_bytes_);
  info_.params = {{"threads", kBandwidthThreads}, {"window_bytes", window_bytes_}};
}

std::optional<std::string> GatherRow::MissingRequirement(const gpu::Context& context) const {
  return WindowMissing(context, window_bytes_);
}

void GatherRow::Prepare(gpu::Context& context) {
  // The traffic the public project counts is its 64 MiB buffer; refract's is the bandwidth
  // buffer size (the same knob as read-linear), never less than the window so that the 64 MiB
  // window is still covered with a smaller --buffer-mib. Only the window itself is allocated.
  uint64_t traffic =
      std::max(requested_traffic_.value_or(DefaultBandwidthBufferBytes(context)), window_bytes_);
  uint64_t loads = std::max<uint64_t>(1, traffic / kBytesPerLoadRound);
  REFRACT_THROW_IF(loads > UINT32_MAX, UsageError, info_.id + ": too many loads a thread");
  loads_ = static_cast<uint32_t>(loads);
  auto window_vec4s = static_cast<uint32_t>(window_bytes_ / kVec4Bytes);
  gpu::ComputePipeline pipeline =
      CompileWithMask(context, "ceil_read_gather", info_.id, window_vec4s);
  data_ = context.CreateBuffer(window_bytes_, gpu::kUsageStorage, info_.id + " data");
  FillVec4(context, data_, window_vec4s);
  gpu::Buffer sums =
      context.CreateBuffer(uint64_t{kBandwidthThreads} * 4, gpu::kUsageStorage, "sums");
  dispatch_ = gpu::DispatchBuilder(context, pipeline)
                  .Buffer(0, gpu::Uniform(context, CountParams{loads_}))
                  .Buffer(1, data_)
                  .Buffer(2, sums)
                  .Groups(kBandwidthWorkgroups)
                  .Build();
  info_.params["loads_per_thread"] = loads_;
}

VerificationRecord GatherRow::Verify(gpu::Context& context) {
  REFRACT_THROW_IF(!dispatch_.pipeline, Error, info_.id + ": Verify before Prepare");
  gpu::Buffer sums = context.CreateBuffer(uint64_t{kBandwidthThreads} * 4,
                                          gpu::kUsageStorage | gpu::kUsageCopySrc, "verify sums");
  context.RunPass(gpu::DispatchBuilder(context, dispatch_.pipeline)
                      .Buffer(0, gpu::Uniform(context, CountParams{kVerifyLoads}))
                      .Buffer(1, data_)
                      .Buffer(2, sums)
                      .Groups(kBandwidthWorkgroups)
                      .Build(),
                  1, false);
  // The same additions in the same order (exact here: every value is a multiple of 2^-16
  // below 1); 1e-6 relative covers a compiler that reassociates them.
  return reference::Compare(
      info_.id + " (" + std::to_string(kVerifyLoads) + " loads a thread)",
      gpu::Download<float>(context, sums),
      reference::GatherModel(kBandwidthThreads, kVerifyLoads,
                             static_cast<uint32_t>(window_bytes_ / kVec4Bytes)),
      Tolerance{.relative = 1e-6}, [](size_t t) { return "thread " + std::to_string(t); });
}

void GatherRow::Release() {
  dispatch_ = {};
  data_ = {};
}

double GatherRow::WorkPerDispatch() const {
  return static_cast<double>(kBandwidthThreads) * loads_ * static_cast<double>(kVec4Bytes);
}

// ---- scatter --------------------------------------------------------------------------------

ScatterRow::ScatterRow(uint64_t window_bytes) : window_bytes_(window_bytes) {
  info_ = {"write-scatter-" + WindowName(window_bytes), "bandwidth", "B/s", "",
           "each vec4 of a " + WindowText(window_bytes) +
               " window stored once, in hashed order (i * 2654435761 + 1013904223) & mask, "
               "grid-stride; bytes = the window"};
  CheckWindow(info_.id, window_bytes_);
  info_.params = {{"vec4s", window_bytes_ / kVec4Bytes}, {"window_bytes", window_bytes_}};
}

std::optional<std::string> ScatterRow::MissingRequirement(const gpu::Context& context) const {
  return WindowMissing(context, window_bytes_);
}

void ScatterRow::Prepare(gpu::Context& context) {
  auto window_vec4s = static_cast<uint32_t>(window_bytes_ / kVec4Bytes);
  gpu::ComputePipeline pipeline =
      CompileWithMask(context, "ceil_write_scatter", info_.id, window_vec4s);
  data_ = context.CreateBuffer(window_bytes_, gpu::kUsageStorage | gpu::kUsageCopySrc,
                               info_.id + " data");
  // Enough workgroups for one store a thread, at most the 1024 of the bandwidth grid (a 64 MiB
  // window is then 16 stores a thread); a 16 KiB window needs only 4 workgroups.
  uint32_t groups =
      std::clamp<uint32_t>(window_vec4s / kBandwidthWorkgroupSize, 1, kBandwidthWorkgroups);
  dispatch_ = gpu::DispatchBuilder(context, pipeline).Buffer(0, data_).Groups(groups).Build();
}

VerificationRecord ScatterRow::Verify(gpu::Context& context) {
  REFRACT_THROW_IF(!dispatch_.pipeline, Error, info_.id + ": Verify before Prepare");
  // A pattern the kernel never writes (every w lane is 1/65536, every value f32(i) is an
  // integer), so an element the kernel skipped cannot pass.
  FillVec4(context, data_, static_cast<uint32_t>(window_bytes_ / kVec4Bytes));
  context.RunPass(dispatch_, 1, false);
  return reference::Compare(
      info_.id, gpu::Download<float>(context, data_),
      reference::ScatterModel(static_cast<uint32_t>(window_bytes_ / kVec4Bytes)), Tolerance{},
      [](size_t i) { return "vec4 " + std::to_string(i / 4) + " lane " + std::to_string(i % 4); });
}

void ScatterRow::Release() {
  dispatch_ = {};
  data_ = {};
}

// ---- catalog --------------------------------------------------------------------------------

std::vector<std::unique_ptr<bench::Benchmark>> MakeMemoryPatternRows(
    const CatalogOptions& options) {
  std::vector<std::unique_ptr<bench::Benchmark>> rows;
  for (uint64_t window : kMemoryPatternWindows) {
    rows.push_back(std::make_unique<GatherRow>(window, options.bandwidth_buffer_bytes));
  }
  for (uint64_t window : kMemoryPatternWindows) {
    rows.push_back(std::make_unique<ScatterRow>(window));
  }
  return rows;
}

}  // namespace refract::suites::ceilings
