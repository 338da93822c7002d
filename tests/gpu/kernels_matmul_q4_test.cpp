// matmul-q4 rows on the test adapter: the seed's int4 kernel, the tuned MatMulNBits GEMV (both
// row-sum paths) and GEMM, K not a multiple of 32 (a partial last block), N not a multiple of
// any tile, M = 1, and a planted GEMV that ignores the last partial block.
#include <gtest/gtest.h>

#include <set>

#include "base/error.h"
#include "suites/kernels/matmul_q4_benchmark.h"
#include "testing/planted_kernel.h"
#include "testing/shared_context.h"

namespace refract::suites::kernels {
namespace {

using refract::testing::PlantedKernel;
using refract::testing::SharedContext;

MatmulShape Shape(uint32_t m, uint32_t k, uint32_t n) { return {"test", "t", m, k, n}; }

KernelOptions OneCopy() { return KernelOptions{.cold_footprint_bytes = 1}; }

struct RunResult {
  VerificationRecord record;
  results::Params params;
};

// Prepare, Verify, one pass over the dispatches, Release.
RunResult RunRow(Variant variant, const MatmulShape& shape,
                 const KernelOptions& options = OneCopy()) {
  SCOPED_TRACE("M=" + std::to_string(shape.m) + " K=" + std::to_string(shape.k) +
               " N=" + std::to_string(shape.n));
  gpu::Context& context = SharedContext();
  MatmulQ4Benchmark row(MatmulInfo("matmul-q4", shape, variant, "test"), variant, shape, options);
  EXPECT_EQ(row.MissingRequirement(context), std::nullopt);
  row.Prepare(context);
  RunResult result{row.Verify(context), row.info().params};
  context.RunPass(row.Dispatches(), 1, false);
  row.Release();
  return result;
}

TEST(KernelsMatmulQ4, BaselineOnTheSeedLayout) {
  // N = 40: seed groups of 32 wrap across rows; K = 45: a partial K block of the logical matrix.
  EXPECT_EQ(RunRow(Variant::kBaseline, Shape(3, 45, 40)).record.elements, 3u * 40u);
  EXPECT_EQ(RunRow(Variant::kBaseline, Shape(1, 64, 37)).record.elements, 37u);
}

TEST(KernelsMatmulQ4, TunedGemvBothReductions) {
  KernelOptions portable = OneCopy();
  portable.portable = true;
  RunResult result = RunRow(Variant::kTuned, Shape(1, 80, 37), portable);  // 2.5 blocks
  EXPECT_EQ(result.params.at("path").AsText(), "gemv");
  EXPECT_EQ(result.params.at("reduction").AsText(), "workgroup");
  EXPECT_EQ(RunRow(Variant::kTuned, Shape(1, 7, 5), portable).record.elements, 5u);

  KernelOptions subgroup = OneCopy();
  subgroup.overrides = {{"WG", 64}, {"TPR", 8}, {"ROWS", 3}};
  result = RunRow(Variant::kTuned, Shape(1, 300, 45), subgroup);  // 10 blocks over 8 threads
  EXPECT_EQ(result.params.at("reduction").AsText(),
            SharedContext().HasFeature(gpu::Feature::kSubgroups) ? "subgroup" : "workgroup");
  // K = 4100: 129 blocks, the last partial, x staged in three chunks of 64 blocks, the last of 1;
  // the device's default rows a thread and one row (the default of a GPU for narrow matrices).
  EXPECT_EQ(RunRow(Variant::kTuned, Shape(1, 4100, 19)).record.elements, 19u);
  KernelOptions one_row = OneCopy();
  one_row.overrides = {{"ROWS", 1}};
  EXPECT_EQ(RunRow(Variant::kTuned, Shape(1, 4100, 19), one_row).record.elements, 19u);
}

TEST(KernelsMatmulQ4, TunedGemvDefaultRowsFollowTheAdapter) {
  // A CPU adapter (lavapipe) takes 4 rows a thread; a GPU 1 below 8192 rows.
  const bool cpu = SharedContext().description().adapter_type == "cpu";
  RunResult result = RunRow(Variant::kTuned, Shape(1, 64, 40));
  EXPECT_EQ(result.params.at("rows").AsInteger(), cpu ? 4 : 1);
}

TEST(KernelsMatmulQ4, TunedGemm) {
  RunResult result = RunRow(Variant::kTuned, Shape(37, 80, 51));  // 64 × 64 × 32 tiles
  EXPECT_EQ(result.params.at("path").AsText(), "gemm");
  EXPECT_EQ(result.params.at("bk").AsInteger(), 32);
  EXPECT_EQ(result.record.elements, 37u * 51u);
  EXPECT_EQ(RunRow(Variant::kTuned, Shape(70, 45, 130)).record.elements, 70u * 130u);
}

TEST(KernelsMatmulQ4, PlantedGemvIgnoringThePartialLastBlockIsCaught) {
  PlantedKernel planted("llm_matmul_q4_tuned_gemv", "min(c0 + CHUNK, blocks)",
                        "min(c0 + CHUNK, params.K / 32u)");
  const MatmulShape shape = Shape(1, 80, 37);
  MatmulQ4Benchmark row(MatmulInfo("matmul-q4", shape, Variant::kTuned, "test"), Variant::kTuned,
                        shape, OneCopy());
  row.Prepare(SharedContext());
  EXPECT_THROW(row.Verify(SharedContext()), VerificationError);
}

TEST(KernelsMatmulQ4, GemvCountsTheStagedXInItsWorkgroupMemory) {
  // 1024 threads × 8 rows of f32 sums (32,768 B) plus x's 9,216 B staging.
  KernelOptions large = OneCopy();
  large.overrides = {{"WG", 1024}, {"ROWS", 8}};
  const MatmulShape shape = Shape(1, 64, 40);
  MatmulQ4Benchmark row(MatmulInfo("matmul-q4", shape, Variant::kTuned, "test"), Variant::kTuned,
                        shape, large);
  const gpu::DeviceLimits& limits = SharedContext().limits();
  if (limits.max_compute_workgroup_storage_size >= 41984 ||
      limits.max_compute_invocations_per_workgroup < 1024) {
    GTEST_SKIP() << "this device holds 41,984 bytes of workgroup memory or lacks 1024 threads";
  }
  const std::string missing = row.MissingRequirement(SharedContext()).value_or("(none)");
  EXPECT_NE(missing.find("needs 41984 bytes of workgroup memory"), std::string::npos) << missing;
}

TEST(KernelsMatmulQ4, CatalogHasBothVariantsOfEveryShape) {
  const auto rows = MatmulQ4Benchmarks();
  std::set<std::string> ids;
  for (const auto& row : rows) ids.insert(row->info().id);
  EXPECT_EQ(ids.size(), rows.size());
  EXPECT_TRUE(ids.count("matmul-q4/reference/ffn/m1/tuned"));
  EXPECT_TRUE(ids.count("matmul-q4/qwen2.5-0.5b/lm-head/m1/baseline"));
}

}  // namespace
}  // namespace refract::suites::kernels
