// The GPU layer on the machine's Vulkan adapter (lavapipe without a GPU).
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <vector>

#include "base/error.h"
#include "bench/runner.h"
#include "gpu/context.h"
#include "suites/smoke/smoke_benchmark.h"
#include "testing/shared_context.h"

namespace refract::gpu {
namespace {

using refract::testing::SharedContext;

constexpr std::string_view kDoubleKernel = R"(
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  if (gid.x < arrayLength(&output)) { output[gid.x] = input[gid.x] * 2u + 1u; }
}
)";

TEST(GpuContext, DescribesAVulkanAdapterWithTimestamps) {
  const DeviceDescription& d = SharedContext().description();
  EXPECT_EQ(d.backend, "vulkan");
  EXPECT_FALSE(d.device.empty());
  EXPECT_NE(d.device, "Null backend");
  EXPECT_FALSE(d.adapter_limits.empty());
  EXPECT_TRUE(d.adapter_limits.count("maxStorageBufferBindingSize"));
  EXPECT_TRUE(SharedContext().HasFeature(Feature::kTimestampQuery));
  // The device is created with the adapter's limits, not WebGPU's defaults.
  EXPECT_EQ(d.device_limits.at("maxComputeInvocationsPerWorkgroup"),
            d.adapter_limits.at("maxComputeInvocationsPerWorkgroup"));
  EXPECT_NE(
      std::find(d.disabled_toggles.begin(), d.disabled_toggles.end(), "timestamp_quantization"),
      d.disabled_toggles.end());
}

TEST(GpuContext, KernelOutputEqualsTheCpu) {
  Context& context = SharedContext();
  constexpr uint32_t kCount = 1000;
  std::vector<uint32_t> input(kCount);
  for (uint32_t i = 0; i < kCount; ++i) input[i] = i * 2654435761u;
  Buffer in = context.CreateBuffer(kCount * 4, kUsageStorage | kUsageCopyDst, "in");
  Buffer out = context.CreateBuffer(kCount * 4, kUsageStorage | kUsageCopySrc, "out");
  context.WriteBuffer(in, 0, std::as_bytes(std::span(input)));
  ComputePipeline pipeline =
      context.CreateComputePipeline({.wgsl = kDoubleKernel, .label = "double"});
  Dispatch dispatch{
      pipeline,
      {context.CreateBindGroup(pipeline, 0, {{0, BufferBinding{in}}, {1, BufferBinding{out}}})},
      (kCount + 63) / 64};
  context.RunPass(dispatch, 1, false);
  std::vector<std::byte> raw = context.ReadBuffer(out, 0, kCount * 4);
  std::vector<uint32_t> output(kCount);
  std::memcpy(output.data(), raw.data(), raw.size());
  for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(output[i], input[i] * 2u + 1u) << "element " << i;
}

TEST(GpuContext, SmokeBenchmarkVerifiesAndRunsOnTheSharedRunner) {
  std::vector<std::unique_ptr<bench::Benchmark>> rows;
  rows.push_back(std::make_unique<suites::smoke::SmokeBenchmark>(1u << 16));
  bench::RunOptions options;
  options.scheduler.stopping = {.kind = measure::StoppingKind::kFixedCount, .samples = 3};
  options.scheduler.idle_gap_ms = 0;
  std::vector<bench::Benchmark*> pointers = {rows[0].get()};
  std::vector<results::ResultRow> results =
      bench::RunBenchmarks(SharedContext(), pointers, options, nullptr);
  ASSERT_EQ(results.size(), 1u);
  const results::ResultRow& row = results[0];
  ASSERT_EQ(row.status, results::RowStatus::kOk) << row.message;
  EXPECT_EQ(row.verification.elements, 1u << 16);
  EXPECT_EQ(row.statistic, "median");
  EXPECT_EQ(row.stop_reason, "sample-count");
  EXPECT_EQ(row.times_ms.size(), 3u);
  EXPECT_GT(row.metric_value, 0);
  EXPECT_EQ(row.work_per_dispatch, 8.0 * (1u << 16));
}

TEST(GpuContext, WgslSyntaxErrorCarriesDawnsMessage) {
  try {
    SharedContext().CreateComputePipeline(
        {.wgsl = "@compute @workgroup_size(1) fn main() { let x = ; }", .label = "broken"});
    FAIL() << "a WGSL syntax error must throw";
  } catch (const GpuError& error) {
    std::string message = error.what();
    EXPECT_NE(message.find("broken"), std::string::npos) << message;
    // Dawn's WGSL compiler (Tint) reports the line:column and what is wrong.
    EXPECT_NE(message.find(":1:49 error: missing initializer"), std::string::npos) << message;
  }
  // The context stays usable after a failed compile.
  EXPECT_NO_THROW(SharedContext().EmptySubmitWallNs());
}

TEST(GpuContext, BindGroupNotMatchingTheLayoutIsAnErrorNotATime) {
  Context& context = SharedContext();
  Buffer in = context.CreateBuffer(256, kUsageStorage, "in");
  Buffer out = context.CreateBuffer(256, kUsageStorage, "out");
  ComputePipeline pipeline =
      context.CreateComputePipeline({.wgsl = kDoubleKernel, .label = "double"});
  // Binding 7 does not exist in the shader: layout: auto has no slot for it.
  EXPECT_THROW(
      context.CreateBindGroup(
          pipeline, 0, {{0, BufferBinding{in}}, {1, BufferBinding{out}}, {7, BufferBinding{out}}}),
      GpuError);
  // A bind group made for another pipeline's layout fails the pass, which must throw.
  ComputePipeline other = context.CreateComputePipeline({.wgsl = kDoubleKernel, .label = "other"});
  BindGroup foreign =
      context.CreateBindGroup(other, 0, {{0, BufferBinding{in}}, {1, BufferBinding{out}}});
  Dispatch dispatch{pipeline, {foreign}, 4};
  EXPECT_THROW(context.RunPass(dispatch, 1, true), GpuError);
  EXPECT_NO_THROW(context.EmptySubmitWallNs());
}

TEST(GpuContext, TimedPassReadsPositiveAndAgreesWithWallClock) {
  Context& context = SharedContext();
  constexpr uint32_t kCount = 1u << 20;
  Buffer in = context.CreateBuffer(kCount * 4, kUsageStorage, "in");
  Buffer out = context.CreateBuffer(kCount * 4, kUsageStorage, "out");
  ComputePipeline pipeline =
      context.CreateComputePipeline({.wgsl = kDoubleKernel, .label = "double"});
  Dispatch dispatch{
      pipeline,
      {context.CreateBindGroup(pipeline, 0, {{0, BufferBinding{in}}, {1, BufferBinding{out}}})},
      kCount / 64};
  context.RunPass(dispatch, 2, true);  // warm-up
  double overhead_ns = context.EmptySubmitWallNs();
  for (int i = 0; i < 2; ++i) overhead_ns = std::min(overhead_ns, context.EmptySubmitWallNs());
  PassTiming timing = context.RunPass(dispatch, 20, true);
  ASSERT_TRUE(timing.gpu_ns.has_value());
  EXPECT_GT(*timing.gpu_ns, 0);
  double gpu_side_wall_ns = timing.wall_ns - overhead_ns;
  EXPECT_GT(gpu_side_wall_ns, 0);
  EXPECT_LT(*timing.gpu_ns, 2 * timing.wall_ns)
      << "gpu " << *timing.gpu_ns << " wall " << timing.wall_ns;
  EXPECT_GT(*timing.gpu_ns * 2, gpu_side_wall_ns)
      << "gpu " << *timing.gpu_ns << " wall " << timing.wall_ns;
}

TEST(GpuContext, NullBackendIsRefused) {
  ContextOptions options;
  options.request_null_backend = true;
  try {
    Context context(options);
    FAIL() << "a Null adapter must be refused";
  } catch (const EnvironmentError& error) {
    EXPECT_NE(std::string(error.what()).find("Null"), std::string::npos) << error.what();
  }
}

TEST(GpuContext, DefaultLimitsOptionCreatesAWebGpuDefaultDevice) {
  ContextOptions options;
  options.default_limits = true;
  Context context(options);
  EXPECT_EQ(context.limits().max_compute_invocations_per_workgroup, 256u);
  EXPECT_EQ(context.limits().max_compute_workgroup_storage_size, 16384u);
}

}  // namespace
}  // namespace refract::gpu
