// The future sweep's loop, in a test: enumerate an op's axis grid (its quick grid: every
// configuration compiles on lavapipe in about a second), keep the configurations its Check
// accepts for this device's limits and for WebGPU's defaults (without a device), and run every
// accepted one verified against the CPU model through its benchmark row.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ops/op_kinds.h"
#include "suites/kernels/matmul_common.h"
#include "suites/kernels/matmul_q4_benchmark.h"
#include "suites/kernels/norm_benchmark.h"
#include "testing/kernel_row.h"
#include "testing/shared_context.h"

namespace refract::suites::kernels {
namespace {

using refract::testing::RunRow;
using refract::testing::SharedContext;

/// Counts of a grid's configurations: accepted for the device, for WebGPU's defaults, run.
struct Tally {
  size_t grid = 0, device = 0, defaults = 0, verified = 0;
};

template <typename Config, typename Accepts, typename RunConfig>
Tally Sweep(const ops::AxisTable<Config>& axes, const Config& base, Accepts accepts,
            RunConfig run) {
  const DeviceLimits& device = SharedContext().limits();
  const DeviceLimits defaults = WebGpuDefaultLimits();
  Tally tally;
  for (const Config& config : axes.Grid(base, /*quick=*/true)) {
    ++tally.grid;
    const ops::Settings values = axes.ValuesOf(config);
    SCOPED_TRACE(ops::SettingsText(values));
    const bool on_device = accepts(config, device);
    const bool within_defaults = accepts(config, defaults);
    tally.defaults += within_defaults ? 1 : 0;
    // Every device allows at least WebGPU's defaults: what they accept, the device runs.
    if (within_defaults) {
      EXPECT_TRUE(on_device);
    }
    if (!on_device) continue;
    ++tally.device;
    if (run(values) > 0) ++tally.verified;
  }
  return tally;
}

TEST(OpsSweepLoop, EveryAcceptedNormConfigurationVerifies) {
  for (uint32_t hidden : {37u, 896u}) {  // scalar and vec4 rows
    const reference::NormShape shape{.rows = 3, .hidden = hidden};
    const Tally tally = Sweep(
        ops::kNormRules.tuned.axes(), ops::RowConfig{},
        [&](const ops::RowConfig& c, const DeviceLimits& limits) {
          return !ops::kNormRules.tuned.Check(c, {.kind = NormKind::kRmsNorm, .shape = shape},
                                              limits);
        },
        [&](const ops::Settings& values) {
          NormBenchmark row({.id = "norm-sweep"}, Variant::kTuned, NormKind::kRmsNorm, shape,
                            {.cold_footprint_bytes = 1, .settings = values});
          return RunRow(row).record.elements;
        });
    EXPECT_EQ(tally.grid, 3u * 2u * 2u);
    EXPECT_EQ(tally.verified, tally.device);  // every accepted configuration ran verified
    EXPECT_GT(tally.device, 0u);
    EXPECT_LT(tally.defaults, tally.grid);  // WebGPU's defaults refuse wg 1024 and subgroups
    EXPECT_GT(tally.defaults, 0u);
  }
}

TEST(OpsSweepLoop, EveryAcceptedQ4GemvConfigurationVerifies) {
  // K = 300 (9.4 blocks, a partial last one), N = 45: no multiple of any row group.
  const MatmulShape shape{"test", "sweep", 1, 300, 45};
  const Tally tally = Sweep(
      ops::kGemvRules.axes(), ops::GemvConfig{},
      [&](const ops::GemvConfig& c, const DeviceLimits& limits) {
        return !ops::kGemvRules.Check(c, {ops::Weights::kQ4, shape.Dims()}, limits);
      },
      [&](const ops::Settings& values) {
        MatmulQ4Benchmark row(MatmulInfo("matmul-q4", shape, Variant::kTuned, "sweep"),
                              Variant::kTuned, shape,
                              {.cold_footprint_bytes = 1, .settings = values});
        return RunRow(row).record.elements;
      });
  EXPECT_EQ(tally.grid, 2u * 2u * 2u * 2u);
  EXPECT_EQ(tally.verified, tally.device);
  EXPECT_GE(tally.device, tally.grid / 2);
  EXPECT_GT(tally.defaults, 0u);
  EXPECT_LT(tally.defaults, tally.grid);  // no subgroups
}

}  // namespace
}  // namespace refract::suites::kernels
