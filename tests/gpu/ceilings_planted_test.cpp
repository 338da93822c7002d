// Planted kernels that skip their work: the suite must catch them (by the output check, the
// work-linearity check or the impossible-rate check), never report their figure as a clean ok.
// One test per trap of docs/CEILINGS.md: a loop folded into its closed form, a loop-invariant
// dot4I8Packed hoisted out of the loop, x/a turned into a multiply by a hoisted reciprocal.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "gpu/context.h"
#include "reference/alu_core_models.h"
#include "suites/ceilings/alu_row.h"
#include "suites/ceilings/ceilings_rules.h"
#include "testing/row_lookup.h"
#include "testing/shared_context.h"

namespace refract::suites::ceilings {
namespace {

using refract::testing::FindAluSpec;
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

// Threads of a planted row's timed dispatch: the most one dimension of 64-thread workgroups
// holds (65,535 workgroups).
constexpr uint32_t kPlantedThreads = 65535u * 64u;

AluRowSpec PlantedSpec(std::string id, const char* source) {
  AluRowSpec spec;
  spec.id = std::move(id);
  spec.source = source;
  spec.unit = "OP/s";
  spec.ops_per_iteration = 32;
  spec.default_iterations = 1024;
  spec.output = OutputType::kU32;
  spec.model = AddChainModel;
  // Enough threads that even the loop-free kernel takes ~16 ms on lavapipe, well above its
  // thread-scheduling jitter: a flat time is judged suspect only beyond the points' noise.
  spec.threads = kPlantedThreads;
  return spec;
}

// Eight accumulators of a loop-invariant dot4I8Packed, acc_k += dot(a + k, b), as a compiler
// that hoists the dot products and then folds the adds emits it: no loop left (the public
// project's "0 ns" dp4a). Lavapipe's compiler does neither, so the test plants the result.
constexpr const char* kHoistedDp4aKernel = R"(
requires packed_4x8_integer_dot_product;
struct Params { threads: u32, iterations: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: array<i32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let idx = gid.x;
  if (idx >= params.threads) { return; }
  let a = idx * 0x9e3779b9u;
  let b = idx ^ 0x5bd1e995u;
  let n = i32(params.iterations);
  var sum = 0;
  for (var k = 0u; k < 8u; k++) {
    sum += i32(idx + k) + n * dot4I8Packed(a + k, b);
  }
  out[idx] = sum;
}
)";

// The hoisted dp4a kernel's output: Σ_k idx + k + iterations · dot(a + k, b), wrapping.
std::vector<double> HoistedDp4aModel(uint32_t threads, uint32_t iterations) {
  std::vector<double> out(threads);
  for (uint32_t t = 0; t < threads; ++t) {
    const uint32_t a = t * 0x9e3779b9u, b = t ^ 0x5bd1e995u;
    uint32_t sum = 0;
    for (uint32_t k = 0; k < 8; ++k) {
      const auto dot = static_cast<uint32_t>(reference::Dot4I8Packed(a + k, b));
      sum += t + k + iterations * dot;
    }
    out[t] = static_cast<int32_t>(sum);
  }
  return out;
}

bool IsSuspect(const results::ResultRow& row) {
  return std::find(row.flags.begin(), row.flags.end(), "suspect") != row.flags.end();
}

const results::ResultRow& RowWithId(const std::vector<results::ResultRow>& rows,
                                    const std::string& id) {
  for (const results::ResultRow& row : rows) {
    if (row.id == id) return row;
  }
  throw std::runtime_error("no result row " + id);
}

bench::RunOptions QuickOptions() {
  bench::RunOptions options;
  options.scheduler.stopping.min_rounds = 2;
  options.scheduler.stopping.max_rounds = 3;
  options.scheduler.idle_gap_ms = 0;
  options.calibration.batch_target_ms = 20;
  // The linearity check judges every planted row, however slow the machine: its probe budget
  // (250 ms) keeps a full run short by leaving slow rows unchecked, and would leave a planted
  // row unchecked where one dispatch takes more than 125 ms (1.6-2.3 s under ASan with its
  // default quarantine, against ~16 ms), so the verdict would depend on the machine's speed.
  options.calibration.linearity.max_probe_ms = std::numeric_limits<double>::infinity();
  return options;
}

TEST(CeilingsPlanted, LoopThatIgnoresTheKnobFailsTheOutputCheckAndIsNeverTimed) {
  std::vector<std::unique_ptr<bench::Benchmark>> rows;
  rows.push_back(std::make_unique<AluRow>(PlantedSpec("planted-capped", kCappedLoopKernel)));
  std::vector<results::ResultRow> results = refract::testing::RunCeilingsRows(rows, QuickOptions());
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].status, results::RowStatus::kError);
  EXPECT_NE(results[0].message.find("disagree with the CPU model"), std::string::npos)
      << results[0].message;
  EXPECT_TRUE(results[0].times_ms.empty());
}

TEST(CeilingsPlanted, ClosedFormKernelPassesTheOutputCheckButIsFlaggedSuspect) {
  std::vector<std::unique_ptr<bench::Benchmark>> rows;
  rows.push_back(std::make_unique<AluRow>(PlantedSpec("planted-closed-form", kClosedFormKernel)));
  bench::RunOptions options = QuickOptions();
  options.calibration.linearity.tries = 7;  // steadier minima on a shared CPU
  std::vector<results::ResultRow> results = refract::testing::RunCeilingsRows(rows, options);
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

TEST(CeilingsPlanted, HoistedDp4aIsFlaggedSuspect) {
  // Beside a real i32 multiply-add row: the folded loop runs flat (linearity) and claims a
  // rate far above any multiply-add of the device (rate check); either flags it.
  AluRowSpec planted = FindAluSpec("i8-dp4a");
  planted.id = "i8-dp4a-hoisted";
  planted.source = kHoistedDp4aKernel;
  planted.model = HoistedDp4aModel;
  planted.threads = kPlantedThreads;
  std::vector<std::unique_ptr<bench::Benchmark>> rows;
  rows.push_back(std::make_unique<AluRow>(FindAluSpec("i32-mad-scalar")));
  rows.push_back(std::make_unique<AluRow>(planted));
  bench::RunOptions options = QuickOptions();
  options.calibration.linearity.tries = 7;
  std::vector<results::ResultRow> results = refract::testing::RunCeilingsRows(rows, options);
  ASSERT_EQ(results.size(), 2u);
  const results::ResultRow& row = RowWithId(results, "i8-dp4a-hoisted");
  if (row.status == results::RowStatus::kSkipped) {
    GTEST_SKIP() << "this device lacks packed_4x8_integer_dot_product: " << row.message;
  }
  ASSERT_EQ(row.status, results::RowStatus::kOk) << row.message;
  EXPECT_TRUE(IsSuspect(row)) << "linearity: " << row.linearity << ", rate " << row.metric_value
                              << " vs i32-mad-scalar "
                              << RowWithId(results, "i32-mad-scalar").metric_value;
  ASSERT_FALSE(row.flag_reasons.empty());
}

TEST(CeilingsPlanted, DivisionByAHoistedReciprocalIsFlaggedByTheRateCheck) {
  // x = x / a + b with a loop-invariant a, as a compiler may emit it: r = 1 / a hoisted, then
  // x = x * r + b, one multiply-add a step. That is the f32-fma-scalar kernel, run here under
  // a division row's id beside the real FMA row: it reaches the FMA rate, which no division
  // can (MaxShareOfFma: 0.75).
  AluRowSpec planted = FindAluSpec("f32-fma-scalar");
  planted.id = "f32-div-hoisted";
  std::vector<std::unique_ptr<bench::Benchmark>> rows;
  rows.push_back(std::make_unique<AluRow>(FindAluSpec("f32-fma-scalar")));
  rows.push_back(std::make_unique<AluRow>(planted));
  std::vector<results::ResultRow> results = refract::testing::RunCeilingsRows(rows, QuickOptions());
  ASSERT_EQ(results.size(), 2u);
  const results::ResultRow& fma = RowWithId(results, "f32-fma-scalar");
  const results::ResultRow& row = RowWithId(results, "f32-div-hoisted");
  ASSERT_EQ(fma.status, results::RowStatus::kOk) << fma.message;
  ASSERT_EQ(row.status, results::RowStatus::kOk) << row.message;
  ASSERT_TRUE(IsSuspect(row)) << row.metric_value / fma.metric_value << "x the FMA rate";
  ASSERT_FALSE(row.flag_reasons.empty());
  // A sound chain is linear; unless noise made it suspect first, the rate check gave a reason
  // (among any others a loaded machine adds, such as few-samples).
  if (row.linearity.rfind("suspect", 0) != 0) {
    const bool rate_reason =
        std::any_of(row.flag_reasons.begin(), row.flag_reasons.end(), [](const std::string& r) {
          return r.find("the device's peak f32_fma_flops") != std::string::npos;
        });
    std::string reasons;
    for (const std::string& reason : row.flag_reasons) reasons += reason + "\n";
    EXPECT_TRUE(rate_reason) << reasons;
  }
}

}  // namespace
}  // namespace refract::suites::ceilings
