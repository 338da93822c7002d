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
#include "suites/ceilings/ceilings_suite.h"
#include "suites/ceilings/memory_pattern_rows.h"
#include "suites/ceilings/texture_rows.h"
#include "testing/row_lookup.h"
#include "testing/shared_context.h"

namespace refract::suites::ceilings {
namespace {

using refract::testing::GtestName;
using refract::testing::SharedContext;

// A small bandwidth buffer keeps lavapipe quick: 4 gather loads a thread (the 64 MiB window
// still makes its own row 16).
constexpr uint64_t kSmallBufferBytes = uint64_t{16} << 20;

CatalogOptions SmallOptions() { return {.bandwidth_buffer_bytes = kSmallBufferBytes}; }

std::vector<std::unique_ptr<CeilingRow>> AllRows() {
  std::vector<std::unique_ptr<CeilingRow>> rows = MakeMemoryPatternRows(SmallOptions());
  for (auto& row : MakeTextureRows(SmallOptions())) rows.push_back(std::move(row));
  return rows;
}

class MemoryRowTest : public ::testing::TestWithParam<std::string> {};

TEST_P(MemoryRowTest, PreparesAndVerifies) {
  std::unique_ptr<CeilingRow> row;
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
  std::vector<std::unique_ptr<CeilingRow>> catalog = MakeCatalog(SmallOptions());
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
  EXPECT_EQ(small.Cols(), 4u);
  EXPECT_EQ(small.WorkPerDispatch(), static_cast<double>(kSmallBufferBytes));
  EXPECT_EQ(small.BufferBytes(), uint64_t{16} << 10);
  GatherRow large(uint64_t{64} << 20, kSmallBufferBytes);
  large.Prepare(context);
  EXPECT_EQ(large.Cols(), 16u);
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

// A test must be able to fail: the 16 KiB gather kernel checked against the model of a 4 MiB
// window (a kernel with the wrong mask) is caught.
TEST(MemoryRowsPlanted, GatherWithTheWrongMaskIsCaught) {
  gpu::Context& context = SharedContext();
  GatherRow row(uint64_t{16} << 10, kSmallBufferBytes);
  row.Prepare(context);
  EXPECT_NO_THROW(row.VerifyAgainstWindow(context, uint64_t{16} << 10));
  EXPECT_THROW(row.VerifyAgainstWindow(context, uint64_t{4} << 20), VerificationError);
  EXPECT_THROW(row.VerifyAgainstWindow(context, uint64_t{8} << 10), VerificationError);
}

// The scatter check on a window the kernel never wrote (only ceil_fill_vec4's pattern) fails.
TEST(MemoryRowsPlanted, ScatterCheckOnAnUnwrittenBufferIsCaught) {
  gpu::Context& context = SharedContext();
  constexpr uint32_t kVec4s = 1024;
  gpu::Buffer data = context.CreateBuffer(uint64_t{kVec4s} * kVec4Bytes,
                                          gpu::kUsageStorage | gpu::kUsageCopySrc, "unwritten");
  FillVec4(context, data, kVec4s);
  std::vector<float> values = ReadFloats(context, data);
  EXPECT_THROW(CheckScatterOutput("planted", values), VerificationError);
  std::vector<float> zeros(values.size(), 0.0f);  // a kernel that wrote nothing
  EXPECT_THROW(CheckScatterOutput("planted", zeros), VerificationError);
}

// The scatter check is exact and checks the permutation: the right window passes, the same
// window with two elements swapped (a kernel with another hash) fails.
TEST(MemoryRowsPlanted, ScatterCheckCatchesTwoSwappedElements) {
  constexpr uint32_t kVec4s = 1024;
  std::vector<float> values(size_t{kVec4s} * 4);
  for (uint32_t i = 0; i < kVec4s; ++i) {
    uint32_t j = (i * 2654435761u + 1013904223u) & (kVec4s - 1);
    for (uint32_t c = 0; c < 4; ++c) values[size_t{j} * 4 + c] = static_cast<float>(i);
  }
  EXPECT_NO_THROW(CheckScatterOutput("planted", values));
  std::swap(values[0], values[4]);
  EXPECT_THROW(CheckScatterOutput("planted", values), VerificationError);
}

// Both texture kernels checked against a model that reads the texels one to the right.
TEST(MemoryRowsPlanted, TextureModelOffByOneTexelIsCaught) {
  gpu::Context& context = SharedContext();
  for (Interpolation kind : {Interpolation::kManual, Interpolation::kBuiltin}) {
    TextureInterpRow row(kind);
    if (std::optional<std::string> missing = row.MissingRequirement(context)) {
      std::cout << "[ note ] " << row.info().id << " not checked: " << *missing << "\n";
      continue;
    }
    SCOPED_TRACE(row.info().id);
    row.Prepare(context);
    EXPECT_NO_THROW(row.VerifyWithModelOffset(context, 0));
    EXPECT_THROW(row.VerifyWithModelOffset(context, 1), VerificationError);
  }
}

TEST(MemoryRowsEndToEnd, GatherRowRunsToAnOkRow) {
  std::vector<std::unique_ptr<CeilingRow>> rows;
  rows.push_back(std::make_unique<GatherRow>(uint64_t{16} << 10, kSmallBufferBytes));
  CeilingsRunOptions options;
  options.scheduler.min_rounds = 1;
  options.scheduler.max_rounds = 2;
  options.scheduler.idle_gap_ms = 0;
  options.calibration.batch_target_ms = 10;
  std::vector<results::ResultRow> results = RunCeilings(SharedContext(), rows, options, nullptr);
  ASSERT_EQ(results.size(), 1u);
  const results::ResultRow& row = results[0];
  ASSERT_EQ(row.status, results::RowStatus::kOk) << row.message;
  EXPECT_EQ(row.id, "read-gather-16kb");
  EXPECT_TRUE(std::isfinite(row.metric_value));
  EXPECT_GT(row.metric_value, 0.0);
  EXPECT_EQ(row.buffer_bytes, uint64_t{16} << 10);
}

}  // namespace
}  // namespace refract::suites::ceilings
