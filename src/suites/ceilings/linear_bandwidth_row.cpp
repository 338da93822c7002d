#include "suites/ceilings/linear_bandwidth_row.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "base/error.h"
#include "gpu/dispatch_builder.h"
#include "gpu/transfer.h"
#include "kernels/embedded_kernels.h"
#include "reference/compare.h"
#include "reference/fill_pattern.h"
#include "suites/ceilings/bandwidth_common.h"

namespace refract::suites::ceilings {
namespace {

constexpr uint64_t kMaxDefaultBytes = uint64_t{1} << 30;
// Smallest buffer: one vec4 per thread of the read grid (docs/CEILINGS.md: 262,144 threads)
// [bytes].
constexpr uint64_t kMinBytes = kVec4Bytes * kBandwidthThreads;

// Workgroups of 256 threads a dispatch. Reads use docs/CEILINGS.md's 1024. Writes use 16,384
// (4,194,304 threads, 16 vec4 a thread at 1 GiB): on the H200 (1 GiB buffer, 2026-11-30)
// writes kept gaining with threads in flight, 3.97–4.04 TB/s with 262,144 threads, 4.07–4.17
// with 1,048,576, 4.19 with 2,097,152 and 4.25 with 4,194,304 (docs/results/archive/NOTEBOOK.md);
// more stores a thread (eight a loop trip) did not help.
uint32_t WorkgroupsFor(LinearAccess access) {
  return access == LinearAccess::kRead ? kBandwidthWorkgroups : 16 * kBandwidthWorkgroups;
}

}  // namespace

uint64_t DefaultBandwidthBufferBytes(const gpu::Context& context) {
  const DeviceLimits& limits = context.limits();
  uint64_t bytes =
      std::min({kMaxDefaultBytes, limits.max_storage_buffer_binding_size, limits.max_buffer_size});
  return bytes / kVec4Bytes * kVec4Bytes;
}

LinearBandwidthRow::LinearBandwidthRow(LinearAccess access, std::optional<uint64_t> buffer_bytes)
    : access_(access), requested_bytes_(buffer_bytes), workgroups_(WorkgroupsFor(access)) {
  if (access_ == LinearAccess::kRead) {
    info_ = {"read-linear", "bandwidth", "B/s", "",
             "vec4 loads over the whole buffer, grid-stride, folded into one sum a thread"};
  } else {
    info_ = {"write-linear", "bandwidth", "B/s", "",
             "vec4 stores over the whole buffer, grid-stride, no reads"};
  }
}

std::optional<std::string> LinearBandwidthRow::MissingRequirement(
    const gpu::Context& context) const {
  uint64_t bytes = requested_bytes_.value_or(DefaultBandwidthBufferBytes(context));
  if (bytes > context.limits().max_storage_buffer_binding_size) {
    return "a " + std::to_string(bytes >> 20) + " MiB buffer exceeds the device's storage " +
           "binding limit of " +
           std::to_string(context.limits().max_storage_buffer_binding_size >> 20) + " MiB";
  }
  return std::nullopt;
}

void LinearBandwidthRow::Prepare(gpu::Context& context) {
  buffer_bytes_ = requested_bytes_.value_or(DefaultBandwidthBufferBytes(context));
  REFRACT_THROW_IF(buffer_bytes_ < kMinBytes || buffer_bytes_ % kVec4Bytes != 0, UsageError,
                   info_.id + ": the buffer must be a multiple of 16 bytes and at least " +
                       std::to_string(kMinBytes >> 20) + " MiB");
  REFRACT_THROW_IF(buffer_bytes_ / kVec4Bytes > UINT32_MAX, UsageError,
                   info_.id + ": the buffer holds more than 2^32 vec4s");
  auto count = static_cast<uint32_t>(buffer_bytes_ / kVec4Bytes);
  const char* kernel = access_ == LinearAccess::kRead ? "ceil_read_linear" : "ceil_write_linear";
  pipeline_ =
      context.CreateComputePipeline({.wgsl = wgsl::KernelSource(kernel), .label = info_.id});
  gpu::Buffer data = context.CreateBuffer(buffer_bytes_, gpu::kUsageStorage, info_.id + " data");
  gpu::Buffer params = gpu::Uniform(context, CountParams{count});
  gpu::DispatchBuilder builder(context, pipeline_);
  builder.Buffer(0, params).Buffer(1, data).Groups(workgroups_);
  if (access_ == LinearAccess::kRead) {
    FillVec4(context, data, count);
    const uint64_t threads = uint64_t{workgroups_} * kBandwidthWorkgroupSize;
    builder.Buffer(2, context.CreateBuffer(threads * 4, gpu::kUsageStorage, "sums"));
  }
  dispatch_ = builder.Build();
  info_.params["buffer_bytes"] = buffer_bytes_;
}

VerificationRecord LinearBandwidthRow::Verify(gpu::Context& context) {
  REFRACT_THROW_IF(!pipeline_, Error, info_.id + ": Verify before Prepare");
  const uint32_t threads = workgroups_ * kBandwidthWorkgroupSize;
  // 1.5 vec4 a thread, so some threads visit 1 and some 2 (the write grid's check then takes
  // 96 MiB, within WebGPU's default 128 MiB binding limit).
  const uint32_t verify_vec4s = threads * 3 / 2;
  gpu::Buffer params = gpu::Uniform(context, CountParams{verify_vec4s});
  gpu::Buffer data = context.CreateBuffer(uint64_t{verify_vec4s} * kVec4Bytes,
                                          gpu::kUsageStorage | gpu::kUsageCopySrc, "verify data");
  gpu::DispatchBuilder builder(context, pipeline_);
  builder.Buffer(0, params).Buffer(1, data).Groups(workgroups_);
  if (access_ == LinearAccess::kWrite) {
    context.RunPass(builder.Build(), 1, false);
    std::vector<float> expected(size_t{verify_vec4s} * 4);
    for (size_t i = 0; i < expected.size(); ++i) {
      expected[i] = static_cast<float>((i / 4) % threads);  // exact: < 2^24
    }
    return reference::Compare(info_.id, gpu::Download<float>(context, data), expected, Tolerance{});
  }
  FillVec4(context, data, verify_vec4s);
  gpu::Buffer sums = context.CreateBuffer(uint64_t{threads} * 4,
                                          gpu::kUsageStorage | gpu::kUsageCopySrc, "verify sums");
  context.RunPass(builder.Buffer(2, sums).Build(), 1, false);
  std::vector<float> expected(threads);
  for (uint32_t t = 0; t < threads; ++t) {
    float sum[4] = {0, 0, 0, 0};
    for (uint32_t i = t; i < verify_vec4s; i += threads) {
      float value[4];
      reference::FillPatternValue(i, value);
      for (int c = 0; c < 4; ++c) sum[c] += value[c];
    }
    expected[t] = (sum[0] + sum[1]) + (sum[2] + sum[3]);
  }
  // Same additions in the same order; 1e-6 relative covers a reassociating compiler.
  return reference::Compare(info_.id, gpu::Download<float>(context, sums), expected,
                            Tolerance{.relative = 1e-6},
                            [](size_t t) { return "thread " + std::to_string(t); });
}

void LinearBandwidthRow::Release() {
  dispatch_ = {};
  pipeline_ = {};
}

}  // namespace refract::suites::ceilings
