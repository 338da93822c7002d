// Planted kernels that skip their work: the suite must catch them (by the output check or by
// the work-linearity check), never report their figure as a clean ok.
#include <gtest/gtest.h>

#include <algorithm>

#include "gpu/context.h"
#include "suites/ceilings/alu_row.h"
#include "suites/ceilings/ceilings_suite.h"
#include "testing/shared_context.h"

namespace refract::suites::ceilings {
namespace {

using refract::testing::SharedContext;

// An integer add chain, 32 steps an iteration: x += (t | 1), starting at x = t.
std::vector<double> AddChainModel(uint32_t threads, uint32_t iterations) {
  std::vector<double> out(threads);
  for (uint32_t t = 0; t < threads; ++t) {
    uint32_t x = t;
    for (uint32_t i = 0; i < iterations * 32; ++i) x += t | 1u;
    out[t] = x;
  }
  return out;
}

// Computes the chain's closed form: right output, but no loop — the "hoisted" trap.
constexpr const char* kClosedFormKernel = R"(
struct Params { threads: u32, iterations: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  if (gid.x >= params.threads) { return; }
  out[gid.x] = gid.x + params.iterations * 32u * (gid.x | 1u);
}
)";

// Runs at most 16 iterations whatever the knob says: wrong output above 16.
constexpr const char* kCappedLoopKernel = R"(
struct Params { threads: u32, iterations: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  if (gid.x >= params.threads) { return; }
  var x = gid.x;
  for (var i = 0u; i < min(params.iterations, 16u) * 32u; i++) { x += gid.x | 1u; }
  out[gid.x] = x;
}
)";

AluRowSpec PlantedSpec(std::string id, const char* source) {
  AluRowSpec spec;
  spec.id = std::move(id);
  spec.source = source;
  spec.unit = "OP/s";
  spec.ops_per_iteration = 32;
  spec.default_iterations = 1024;
  spec.output = OutputType::kU32;
  spec.model = AddChainModel;
  // Enough threads that even the loop-free kernel takes over 0.5 ms on lavapipe (only
  // dispatches past launch overhead are judged), few enough that the work ramp still climbs.
  spec.threads = 1u << 19;
  return spec;
}

CeilingsRunOptions QuickOptions() {
  CeilingsRunOptions options;
  options.scheduler.min_rounds = 2;
  options.scheduler.max_rounds = 3;
  options.scheduler.idle_gap_ms = 0;
  options.calibration.batch_target_ms = 20;
  return options;
}

TEST(CeilingsPlanted, LoopThatIgnoresTheKnobFailsTheOutputCheckAndIsNeverTimed) {
  std::vector<std::unique_ptr<CeilingRow>> rows;
  rows.push_back(std::make_unique<AluRow>(PlantedSpec("planted-capped", kCappedLoopKernel)));
  std::vector<results::ResultRow> results =
      RunCeilings(SharedContext(), rows, QuickOptions(), nullptr);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].status, results::RowStatus::kError);
  EXPECT_NE(results[0].message.find("disagree with the CPU model"), std::string::npos)
      << results[0].message;
  EXPECT_TRUE(results[0].times_ms.empty());
}

TEST(CeilingsPlanted, ClosedFormKernelPassesTheOutputCheckButIsFlaggedSuspect) {
  std::vector<std::unique_ptr<CeilingRow>> rows;
  rows.push_back(std::make_unique<AluRow>(PlantedSpec("planted-closed-form", kClosedFormKernel)));
  CeilingsRunOptions options = QuickOptions();
  options.calibration.linearity.tries = 5;  // steadier minima on a shared CPU
  std::vector<results::ResultRow> results = RunCeilings(SharedContext(), rows, options, nullptr);
  ASSERT_EQ(results.size(), 1u);
  const results::ResultRow& row = results[0];
  ASSERT_EQ(row.status, results::RowStatus::kOk) << row.message;
  EXPECT_NE(std::find(row.flags.begin(), row.flags.end(), "suspect"), row.flags.end())
      << "the linearity check must flag a kernel whose time ignores its work: " << row.linearity
      << " best " << row.stats.min << " ms";
  ASSERT_FALSE(row.flag_reasons.empty());
  EXPECT_NE(row.flag_reasons[0].find("suspect"), std::string::npos) << row.flag_reasons[0];
  EXPECT_EQ(row.linearity.rfind("suspect", 0), 0u) << row.linearity;
}

}  // namespace
}  // namespace refract::suites::ceilings
