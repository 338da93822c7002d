#include "suites/ceilings/memory_pattern_rows.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "base/error.h"
#include "kernels/embedded_kernels.h"
#include "suites/ceilings/linear_bandwidth_row.h"

namespace refract::suites::ceilings {
namespace {

// Verify's problem: every thread of the timed grid, 3 loads each (odd, so a kernel that ignores
// part of the loop bound disagrees), on the timed window.
constexpr uint32_t kVerifyLoads = 3;
// Bytes one load of every thread moves: 262,144 × 16 = 4 MiB [bytes].
constexpr uint64_t kBytesPerLoadRound = uint64_t{kBandwidthThreads} * kVec4Bytes;
// The multiplier and increment of the scatter permutation (ceil_write_scatter.wgsl).
constexpr uint32_t kScatterMultiplier = 2654435761u;
constexpr uint32_t kScatterIncrement = 1013904223u;

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
      {.wgsl = kernels::KernelSource(kernel),
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
  dispatch_ = {pipeline,
               {context.CreateBindGroup(pipeline, 0,
                                        {{0, gpu::BufferBinding{MakeCountParams(context, loads_)}},
                                         {1, gpu::BufferBinding{data_}},
                                         {2, gpu::BufferBinding{sums}}})},
               kBandwidthWorkgroups};
}

void GatherRow::Verify(gpu::Context& context) { VerifyAgainstWindow(context, window_bytes_); }

void GatherRow::VerifyAgainstWindow(gpu::Context& context, uint64_t model_window_bytes) {
  REFRACT_THROW_IF(!dispatch_.pipeline, Error, info_.id + ": Verify before Prepare");
  CheckWindow(info_.id, model_window_bytes);
  gpu::Buffer sums = context.CreateBuffer(uint64_t{kBandwidthThreads} * 4,
                                          gpu::kUsageStorage | gpu::kUsageCopySrc, "verify sums");
  gpu::ComputePipeline pipeline = dispatch_.pipeline;
  context.RunPass(
      {pipeline,
       {context.CreateBindGroup(pipeline, 0,
                                {{0, gpu::BufferBinding{MakeCountParams(context, kVerifyLoads)}},
                                 {1, gpu::BufferBinding{data_}},
                                 {2, gpu::BufferBinding{sums}}})},
       kBandwidthWorkgroups},
      1, false);
  std::vector<float> gpu_sums = ReadFloats(context, sums);
  std::vector<float> cpu_sums = GatherModel(kBandwidthThreads, kVerifyLoads,
                                            static_cast<uint32_t>(model_window_bytes / kVec4Bytes));
  MismatchLog log(info_.id);
  for (uint32_t t = 0; t < kBandwidthThreads; ++t) {
    // The same additions in the same order (exact here: every value is a multiple of 2^-16
    // below 1); 1e-6 relative covers a compiler that reassociates them.
    if (!(std::fabs(gpu_sums[t] - cpu_sums[t]) <= 1e-6f * std::fabs(cpu_sums[t]))) {
      log.Note(t, gpu_sums[t], cpu_sums[t]);
    }
  }
  log.ThrowIfAny(kBandwidthThreads, std::to_string(kVerifyLoads) + " loads a thread");
}

void GatherRow::Release() {
  dispatch_ = {};
  data_ = {};
}

double GatherRow::WorkPerDispatch() const {
  return static_cast<double>(kBandwidthThreads) * loads_ * static_cast<double>(kVec4Bytes);
}

std::vector<float> GatherModel(uint32_t threads, uint32_t loads, uint32_t window_vec4s) {
  const uint32_t mask = window_vec4s - 1;
  std::vector<float> out(threads);
  for (uint32_t t = 0; t < threads; ++t) {
    uint32_t h = t * 2654435761u;
    float sum[4] = {0, 0, 0, 0};
    for (uint32_t k = 0; k < loads; ++k) {
      h = h * 1664525u + 1013904223u;
      float value[4];
      FillValue((h >> 8u) & mask, value);
      for (int c = 0; c < 4; ++c) sum[c] += value[c];
    }
    out[t] = (sum[0] + sum[1]) + (sum[2] + sum[3]);
  }
  return out;
}

// ---- scatter --------------------------------------------------------------------------------

ScatterRow::ScatterRow(uint64_t window_bytes) : window_bytes_(window_bytes) {
  info_ = {"write-scatter-" + WindowName(window_bytes), "bandwidth", "B/s", "",
           "each vec4 of a " + WindowText(window_bytes) +
               " window stored once, in hashed order (i * 2654435761 + 1013904223) & mask, "
               "grid-stride; bytes = the window"};
  CheckWindow(info_.id, window_bytes_);
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
  dispatch_ = {
      pipeline, {context.CreateBindGroup(pipeline, 0, {{0, gpu::BufferBinding{data_}}})}, groups};
}

void ScatterRow::Verify(gpu::Context& context) {
  REFRACT_THROW_IF(!dispatch_.pipeline, Error, info_.id + ": Verify before Prepare");
  // A pattern the kernel never writes (every w lane is 1/65536, every value f32(i) is an
  // integer), so an element the kernel skipped cannot pass.
  FillVec4(context, data_, static_cast<uint32_t>(window_bytes_ / kVec4Bytes));
  context.RunPass(dispatch_, 1, false);
  CheckScatterOutput(info_.id, ReadFloats(context, data_));
}

void ScatterRow::Release() {
  dispatch_ = {};
  data_ = {};
}

void CheckScatterOutput(const std::string& id, std::span<const float> values) {
  const size_t window = values.size() / 4;
  REFRACT_THROW_IF(
      values.size() % 4 != 0 || window == 0 || (window & (window - 1)) != 0 ||
          window > (size_t{1} << 24),
      VerificationError,
      id + ": " + std::to_string(values.size()) + " floats are not a power-of-two window of vec4s");
  const auto mask = static_cast<uint32_t>(window - 1);
  std::vector<bool> hit(window, false);
  MismatchLog log(id);
  for (uint32_t i = 0; i < window; ++i) {
    uint32_t j = (i * kScatterMultiplier + kScatterIncrement) & mask;
    // The CPU's own check of the permutation: an odd multiplier never maps two i to one j.
    REFRACT_THROW_IF(hit[j], Error, id + ": the scatter hash is not a permutation");
    hit[j] = true;
    auto expected = static_cast<float>(i);  // exact: i < 2^24
    for (uint32_t c = 0; c < 4; ++c) {
      float value = values[size_t{j} * 4 + c];
      if (value != expected) log.Note(size_t{j} * 4 + c, value, expected);
    }
  }
  log.ThrowIfAny(values.size());
}

// ---- catalog --------------------------------------------------------------------------------

std::vector<std::unique_ptr<CeilingRow>> MakeMemoryPatternRows(const CatalogOptions& options) {
  std::vector<std::unique_ptr<CeilingRow>> rows;
  for (uint64_t window : kMemoryPatternWindows) {
    rows.push_back(std::make_unique<GatherRow>(window, options.bandwidth_buffer_bytes));
  }
  for (uint64_t window : kMemoryPatternWindows) {
    rows.push_back(std::make_unique<ScatterRow>(window));
  }
  return rows;
}

}  // namespace refract::suites::ceilings
