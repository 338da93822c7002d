// The gather, scatter and texture-interpolation bandwidth rows on the machine's Vulkan adapter
// (lavapipe without a GPU): each prepares and verifies against its CPU model at a small
// bandwidth buffer, planted mistakes are caught, and one gather row runs end to end.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "gpu/context.h"
#include "suites/ceilings/bandwidth_common.h"
#include "suites/ceilings/catalog.h"
#include "suites/ceilings/memory_pattern_rows.h"
#include "suites/ceilings/texture_rows.h"
#include "testing/planted_kernel.h"
#include "testing/row_lookup.h"
#include "testing/shared_context.h"

namespace refract::suites::ceilings {
namespace {

using refract::testing::EditedKernel;
using refract::testing::GtestName;
using refract::testing::PlantedKernel;
using refract::testing::SharedContext;

// A small bandwidth buffer keeps lavapipe quick: 4 gather loads a thread (the 64 MiB window
// still makes its own row 16).
constexpr uint64_t kSmallBufferBytes = uint64_t{16} << 20;

CatalogOptions SmallOptions() { return {.bandwidth_buffer_bytes = kSmallBufferBytes}; }

std::vector<std::unique_ptr<bench::Benchmark>> AllRows() {
  std::vector<std::unique_ptr<bench::Benchmark>> rows = MakeMemoryPatternRows(SmallOptions());
  for (auto& row : MakeTextureRows(SmallOptions())) rows.push_back(std::move(row));
  return rows;
}

class MemoryRowTest : public ::testing::TestWithParam<std::string> {};

TEST_P(MemoryRowTest, PreparesAndVerifies) {
  std::unique_ptr<bench::Benchmark> row;
  for (auto& candidate : AllRows()) {
    if (candidate->info().id == GetParam()) row = std::move(candidate);
  }
  ASSERT_TRUE(row) << GetParam();
  gpu::Context& context = SharedContext();
  if (std::optional<std::string> missing = row->MissingRequirement(context)) {
    GTEST_SKIP() << GetParam() << ": " << *missing;
  }
  EXPECT_EQ(row->info().category, "bandwidth");
  EXPECT_EQ(row->info().unit, "B/s");
  ASSERT_NO_THROW(row->Prepare(context));
  EXPECT_NO_THROW(row->Verify(context));
  EXPECT_GT(row->WorkPerDispatch(), 0.0);
  EXPECT_EQ(row->Dispatches().size(), 1u);
  row->Release();
}

INSTANTIATE_TEST_SUITE_P(Rows, MemoryRowTest,
                         ::testing::Values("read-gather-16kb", "read-gather-4mb",
                                           "read-gather-64mb", "write-scatter-16kb",
                                           "write-scatter-4mb", "write-scatter-64mb",
                                           "texture-interp-builtin", "texture-interp-manual"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return GtestName(info.param);
                         });

TEST(MemoryRows, CatalogRegistersThemRightAfterTheLinearRows) {
  std::vector<std::unique_ptr<bench::Benchmark>> catalog = MakeCatalog(SmallOptions());
  std::vector<std::string> ids;
  for (const auto& row : catalog) {
    if (row->info().category == "bandwidth") ids.push_back(row->info().id);
  }
  std::vector<std::string> expected = {
      "read-linear",          "write-linear",       "read-gather-16kb",
      "read-gather-4mb",      "read-gather-64mb",   "write-scatter-16kb",
      "write-scatter-4mb",    "write-scatter-64mb", "texture-interp-builtin",
      "texture-interp-manual"};
  ASSERT_GE(ids.size(), expected.size());
  ids.resize(expected.size());
  EXPECT_EQ(ids, expected);
}

TEST(MemoryRows, WorkPerDispatchFollowsTheFormulas) {
  gpu::Context& context = SharedContext();
  // Gather: bytes = the bandwidth buffer (16 MiB = 4 loads a thread), at least the window.
  GatherRow small(uint64_t{16} << 10, kSmallBufferBytes);
  small.Prepare(context);
  EXPECT_EQ(small.info().params.at("loads_per_thread"), results::ParamValue(4));
  EXPECT_EQ(small.WorkPerDispatch(), static_cast<double>(kSmallBufferBytes));
  EXPECT_EQ(small.info().params.at("window_bytes"), results::ParamValue(uint64_t{16} << 10));
  GatherRow large(uint64_t{64} << 20, kSmallBufferBytes);
  large.Prepare(context);
  EXPECT_EQ(large.info().params.at("loads_per_thread"), results::ParamValue(16));
  EXPECT_EQ(large.WorkPerDispatch(), static_cast<double>(uint64_t{64} << 20));
  // Scatter: bytes = window × 1 (each vec4 of it once).
  ScatterRow scatter(uint64_t{4} << 20);
  EXPECT_EQ(scatter.WorkPerDispatch(), static_cast<double>(uint64_t{4} << 20));
  // Texture: threads × iterations × 32.
  TextureInterpRow manual(Interpolation::kManual);
  manual.SetWork(16);
  EXPECT_EQ(manual.WorkPerDispatch(), 262144.0 * 16 * 32);
  EXPECT_EQ(manual.MinWork(), 16u);
  EXPECT_THROW(manual.SetWork(8), Error);
}

/// Prepares and verifies `row` on the shared context; the verification's message, or "" when
/// it passed.
std::string VerifyMessage(bench::Benchmark& row) {
  gpu::Context& context = SharedContext();
  row.Prepare(context);
  try {
    row.Verify(context);
  } catch (const VerificationError& error) {
    row.Release();
    return error.what();
  }
  row.Release();
  return "";
}

// A test must be able to fail: a gather kernel with the wrong mask (half the window) is caught.
TEST(MemoryRowsPlanted, GatherWithTheWrongMaskIsCaught) {
  GatherRow row(uint64_t{16} << 10, kSmallBufferBytes);
  EXPECT_EQ(VerifyMessage(row), "");
  PlantedKernel planted("ceil_read_gather",
                        EditedKernel("ceil_read_gather", "8u) & mask]", "8u) & (mask >> 1u)]"));
  EXPECT_NE(VerifyMessage(row).find("outputs disagree"), std::string::npos);
}

// A scatter kernel that leaves half the window unwritten is caught.
TEST(MemoryRowsPlanted, ScatterThatSkipsElementsIsCaught) {
  ScatterRow row(uint64_t{16} << 10);
  EXPECT_EQ(VerifyMessage(row), "");
  PlantedKernel planted("ceil_write_scatter",
                        EditedKernel("ceil_write_scatter", "i <= mask;", "i <= mask / 2u;"));
  EXPECT_NE(VerifyMessage(row).find("outputs disagree"), std::string::npos);
}

// A scatter kernel with another hash (another permutation) is caught: the check is exact.
TEST(MemoryRowsPlanted, ScatterWithAnotherHashIsCaught) {
  ScatterRow row(uint64_t{16} << 10);
  PlantedKernel planted("ceil_write_scatter",
                        EditedKernel("ceil_write_scatter", "1013904223u", "1013904221u"));
  EXPECT_NE(VerifyMessage(row).find("outputs disagree"), std::string::npos);
}

// Both texture kernels reading the texels one to the right are caught.
TEST(MemoryRowsPlanted, TextureReadingTheWrongTexelsIsCaught) {
  gpu::Context& context = SharedContext();
  struct Plant {
    Interpolation kind;
    const char* kernel;
    const char* from;
    const char* to;
  };
  for (const Plant& plant :
       {Plant{Interpolation::kManual, "ceil_texture_interp_manual", "vec2<u32>(x0, 0u)",
              "vec2<u32>(x0 + 1u, 0u)"},
        Plant{Interpolation::kBuiltin, "ceil_texture_interp_builtin", "f + 0.5)", "f + 1.5)"}}) {
    TextureInterpRow row(plant.kind);
    if (std::optional<std::string> missing = row.MissingRequirement(context)) {
      std::cout << "[ note ] " << row.info().id << " not checked: " << *missing << "\n";
      continue;
    }
    SCOPED_TRACE(row.info().id);
    EXPECT_EQ(VerifyMessage(row), "");
    PlantedKernel planted(plant.kernel, EditedKernel(plant.kernel, plant.from, plant.to));
    EXPECT_NE(VerifyMessage(row).find("outputs disagree"), std::string::npos);
  }
}

TEST(MemoryRowsEndToEnd, GatherRowRunsToAnOkRow) {
  std::vector<std::unique_ptr<bench::Benchmark>> rows;
  rows.push_back(std::make_unique<GatherRow>(uint64_t{16} << 10, kSmallBufferBytes));
  bench::RunOptions options;
  options.scheduler.stopping.min_rounds = 1;
  options.scheduler.stopping.max_rounds = 2;
  options.scheduler.idle_gap_ms = 0;
  options.calibration.batch_target_ms = 10;
  std::vector<results::ResultRow> results = refract::testing::RunCeilingsRows(rows, options);
  ASSERT_EQ(results.size(), 1u);
  const results::ResultRow& row = results[0];
  ASSERT_EQ(row.status, results::RowStatus::kOk) << row.message;
  EXPECT_EQ(row.id, "read-gather-16kb");
  EXPECT_TRUE(std::isfinite(row.metric_value));
  EXPECT_GT(row.metric_value, 0.0);
  EXPECT_EQ(row.params.at("window_bytes"), results::ParamValue(uint64_t{16} << 10));
  EXPECT_EQ(row.verification.elements, 262144u);
}

}  // namespace
}  // namespace refract::suites::ceilings
