// matmul-f32 rows on the test adapter: both variants, both GEMV reduction paths, tile
// configurations, shapes that are multiples of no tile, M = 1, the cold rotation, planted
// GEMMs that drop the tail tile of K or of N, and the inputs shared by a problem's rows.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "base/error.h"
#include "suites/kernels/matmul_common.h"
#include "suites/kernels/matmul_f32_benchmark.h"
#include "testing/kernel_row.h"
#include "testing/planted_kernel.h"
#include "testing/shared_context.h"

namespace refract::suites::kernels {
namespace {

using refract::testing::PlantedKernel;
using refract::testing::RowRun;
using refract::testing::RunRow;
using refract::testing::SharedContext;
using ::testing::HasSubstr;

MatmulShape Shape(uint32_t m, uint32_t k, uint32_t n) { return {"test", "t", m, k, n}; }

KernelOptions OneCopy() { return KernelOptions{.cold_footprint_bytes = 1}; }

RowRun RunCase(Variant variant, const MatmulShape& shape,
               const KernelOptions& options = OneCopy()) {
  SCOPED_TRACE("M=" + std::to_string(shape.m) + " K=" + std::to_string(shape.k) +
               " N=" + std::to_string(shape.n));
  MatmulF32Benchmark row(MatmulInfo("matmul-f32", shape, variant, "test"), variant, shape, options);
  return RunRow(row);
}

/// Options fixing the tuned row's settings (one copy).
KernelOptions Set(ops::Settings settings) {
  return KernelOptions{.cold_footprint_bytes = 1, .settings = std::move(settings)};
}

TEST(KernelsMatmulF32, BaselineAtShapesOfNoTile) {
  EXPECT_EQ(RunCase(Variant::kBaseline, Shape(37, 45, 51)).record.elements, 37u * 51u);
  EXPECT_EQ(RunCase(Variant::kBaseline, Shape(1, 45, 51)).record.elements, 51u);
}

TEST(KernelsMatmulF32, TunedGemmDefaultTiles) {
  // A small product gets the smallest tier, 32 × 32 × 16 tiles: 2 × 2 tiles with partial
  // edges, then 3 × 5; K % 4 = 1 and 0.
  RowRun result = RunCase(Variant::kTuned, Shape(37, 45, 51));
  EXPECT_EQ(result.params.at("path").AsText(), "gemm");
  EXPECT_EQ(result.params.at("bm").AsInteger(), 32);
  EXPECT_EQ(RunCase(Variant::kTuned, Shape(70, 100, 130)).record.elements, 70u * 130u);
  EXPECT_EQ(RunCase(Variant::kTuned, Shape(2, 7, 3)).record.elements, 6u);
}

TEST(KernelsMatmulF32, TunedGemmOtherTiles) {
  const KernelOptions large = Set({{"bm", 128}, {"bn", 128}, {"bk", 16}, {"tm", 8}, {"tn", 8}});
  EXPECT_EQ(RunCase(Variant::kTuned, Shape(130, 37, 133), large).record.elements, 130u * 133u);
  const KernelOptions middle = Set({{"bm", 64}, {"bn", 64}, {"bk", 16}, {"tm", 4}, {"tn", 4}});
  EXPECT_EQ(RunCase(Variant::kTuned, Shape(37, 45, 51), middle).record.elements, 37u * 51u);
  const KernelOptions narrow =
      Set({{"bm", 32}, {"bn", 64}, {"bk", 16}, {"tm", 4}, {"tn", 4}, {"a_pad", 0}});
  RowRun run = RunCase(Variant::kTuned, Shape(33, 50, 65), narrow);
  EXPECT_EQ(run.record.elements, 33u * 65u);
  EXPECT_EQ(run.params.at("a_pad").AsInteger(), 0);
  EXPECT_EQ(run.params.at("bn").AsInteger(), 64);
}

TEST(KernelsMatmulF32, TunedGemvBothReductions) {
  const KernelOptions portable = Set({{"subgroups", 0}});
  RowRun result = RunCase(Variant::kTuned, Shape(1, 45, 51), portable);
  EXPECT_EQ(result.params.at("path").AsText(), "gemv");
  EXPECT_EQ(result.params.at("subgroups").AsInteger(), 0);
  EXPECT_EQ(result.record.elements, 51u);
  EXPECT_EQ(RunCase(Variant::kTuned, Shape(1, 3, 5), portable).record.elements, 5u);

  // 4 along K fits any subgroup of 4 or more: the default takes the subgroup sums.
  result = RunCase(Variant::kTuned, Shape(1, 77, 101), Set({{"wg", 64}, {"tpr", 4}, {"rows", 3}}));
  EXPECT_EQ(result.params.at("subgroups").AsInteger(),
            SharedContext().HasFeature(gpu::Feature::kSubgroups) ? 1 : 0);
  EXPECT_EQ(result.record.elements, 101u);
}

TEST(KernelsMatmulF32, SplitKForFewTiles) {
  // 5 × 70 makes 3 tiles of 32 × 32: the default splits K = 300 (19 steps of 16) into 4 slices,
  // the last shorter; an explicit 3 slices, and 1 (no split) agree as well.
  RowRun run = RunCase(Variant::kTuned, Shape(5, 300, 70));
  EXPECT_GT(run.params.at("split_k").AsInteger(), 1);
  EXPECT_EQ(run.record.elements, 5u * 70u);
  for (uint32_t split : {1u, 3u, 19u}) {
    run = RunCase(Variant::kTuned, Shape(5, 300, 70), Set({{"split_k", split}}));
    EXPECT_EQ(run.params.at("split_k").AsInteger(), split);
    EXPECT_EQ(run.record.elements, 5u * 70u);
  }
  // Many tiles: no split.
  EXPECT_EQ(RunCase(Variant::kTuned, Shape(64, 32, 2048)).params.at("split_k").AsInteger(), 1);
}

TEST(KernelsMatmulF32, PlantedSplitKLosingASliceIsCaught) {
  PlantedKernel planted("llm_gemm_reduce", "z < params.slices", "z + 1u < params.slices");
  MatmulF32Benchmark row(MatmulInfo("matmul-f32", Shape(5, 300, 70), Variant::kTuned, "test"),
                         Variant::kTuned, Shape(5, 300, 70), Set({{"split_k", 3}}));
  EXPECT_THROW(RunRow(row), VerificationError);
}

TEST(KernelsMatmulF32, RotatesThroughCopies) {
  const MatmulShape shape = Shape(20, 24, 28);
  const uint64_t input_bytes = (20 * 24 + 24 * 28) * 4;  // tuned GEMM: rows already whole vec4
  MatmulF32Benchmark row(MatmulInfo("matmul-f32", shape, Variant::kTuned, "test"), Variant::kTuned,
                         shape, KernelOptions{.cold_footprint_bytes = 3 * input_bytes});
  row.Prepare(SharedContext());
  EXPECT_EQ(row.Dispatches().size(), 3u);
  EXPECT_EQ(row.InvocationsPerDispatch(), 3u);
  EXPECT_EQ(row.info().params.at("cold").AsText(), "true");
  EXPECT_DOUBLE_EQ(row.WorkPerDispatch(), 3 * 2.0 * 20 * 24 * 28);
  EXPECT_EQ(row.Verify(SharedContext()).elements, 20u * 28u);
  SharedContext().RunPass(row.Dispatches(), 1, false);
}

TEST(KernelsMatmulF32, RefusesWhatTheDeviceCannotHold) {
  gpu::Context& context = SharedContext();
  const KernelOptions huge_tiles =
      Set({{"bm", 256}, {"bn", 256}, {"bk", 32}, {"tm", 8}, {"tn", 8}});  // 66,048 B
  const MatmulShape shape = Shape(300, 64, 300);
  MatmulF32Benchmark row(MatmulInfo("matmul-f32", shape, Variant::kTuned, "test"), Variant::kTuned,
                         shape, huge_tiles);
  if (context.limits().max_compute_workgroup_storage_size < 66048) {
    EXPECT_THAT(row.MissingRequirement(context).value_or(""),
                HasSubstr("maxComputeWorkgroupStorageSize"));
    EXPECT_THROW(row.Prepare(context), UsageError);
  }
  const MatmulShape lm_head = {"qwen2.5-0.5b", "lm-head", 1, 896, 151936};  // 544 MB of W
  MatmulF32Benchmark head(MatmulInfo("matmul-f32", lm_head, Variant::kBaseline, "test"),
                          Variant::kBaseline, lm_head, OneCopy());
  if (context.limits().max_storage_buffer_binding_size < 896ull * 151936 * 4) {
    EXPECT_THAT(head.MissingRequirement(context).value_or(""), HasSubstr("storage binding"));
  }
}

void ExpectCaught(const MatmulShape& shape) {
  MatmulF32Benchmark row(MatmulInfo("matmul-f32", shape, Variant::kTuned, "test"), Variant::kTuned,
                         shape, OneCopy());
  row.Prepare(SharedContext());
  EXPECT_THROW(row.Verify(SharedContext()), VerificationError);
}

TEST(KernelsMatmulF32, PlantedGemmDroppingTheLastKTileIsCaught) {
  PlantedKernel planted("llm_gemm_core_part", "min(params.K, k0) + BK - 1u) / BK;",
                        "min(params.K, k0)) / BK;");
  ExpectCaught(Shape(37, 45, 51));  // K = 45: the last 13 of K dropped
}

TEST(KernelsMatmulF32, PlantedGemmSkippingThePartialNTileIsCaught) {
  PlantedKernel planted("llm_gemm_core_part", "if (row < params.M && col4 < n4s) {",
                        "if (row < params.M && n0 + BN <= params.N) {");
  ExpectCaught(Shape(37, 45, 51));  // N = 51 < 64: the only N tile is partial
}

// The shared inputs and reference let no wrong kernel through: a planted GEMM run after a
// correct configuration of the same problem (its inputs and reference already made) still fails.
TEST(KernelsMatmulF32, APlantedConfigurationAfterACorrectOneOfItsProblemIsCaught) {
  const MatmulShape shape = Shape(37, 45, 51);
  EXPECT_EQ(RunCase(Variant::kTuned, shape).record.elements, 37u * 51u);
  {
    PlantedKernel planted("llm_gemm_core_part", "min(params.K, k0) + BK - 1u) / BK;",
                          "min(params.K, k0)) / BK;");
    ExpectCaught(shape);
  }
  EXPECT_EQ(RunCase(Variant::kTuned, shape).record.elements, 37u * 51u);
}

// A sweep verifies every configuration of a problem against one shared reference (no GPU): it
// must be A · Wᵀ at the indices asked for, whatever was asked before.
TEST(KernelsMatmulInputs, ProductsAreAWTransposedAtTheIndicesAskedFor) {
  // A [2, 2] = {1, 2; 3, 4}; W [3, 2] = {1, 0; 0, 1; 1, 1} (k 2, n 3).
  const MatmulInputs inputs({1, 2, 3, 4}, {1, 0, 0, 1, 1, 1});
  const std::vector<size_t> all = {0, 1, 2, 3, 4, 5};
  const std::vector<double>& first = inputs.Products(2, 3, all);
  EXPECT_EQ(first, (std::vector<double>{1, 2, 3, 3, 4, 7}));
  EXPECT_EQ(&inputs.Products(2, 3, all), &first);  // kept, not made again
  EXPECT_EQ(inputs.Products(2, 3, std::vector<size_t>{2, 4}), (std::vector<double>{3, 4}));
  EXPECT_EQ(inputs.Products(2, 3, all), (std::vector<double>{1, 2, 3, 3, 4, 7}));
}

TEST(KernelsLastMade, MakesAgainOnlyWhenTheKeyChanges) {
  LastMade<int, std::vector<int>> last;
  int made = 0;
  auto make = [&](int key) {
    return [&made, key] {
      ++made;
      return std::vector<int>(3, key);
    };
  };
  const auto one = last.Get(1, make(1));
  EXPECT_EQ(last.Get(1, make(1)), one);
  EXPECT_EQ(made, 1);
  const auto two = last.Get(2, make(2));
  EXPECT_EQ(*two, (std::vector<int>{2, 2, 2}));
  EXPECT_EQ(*one, (std::vector<int>{1, 1, 1}));  // a holder keeps its value
  EXPECT_EQ(*last.Get(1, make(1)), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(made, 3);
}

TEST(KernelsMatmulF32, CatalogHasBothVariantsOfEveryShape) {
  const auto rows = MatmulF32Benchmarks();
  std::set<std::string> ids;
  for (const auto& row : rows) ids.insert(row->info().id);
  EXPECT_EQ(ids.size(), rows.size());
  EXPECT_EQ(rows.size(), 2 * MatmulCatalogShapes().size());
  EXPECT_TRUE(ids.count("matmul-f32/reference/square/m4096/tuned"));
  EXPECT_TRUE(ids.count("matmul-f32/qwen2.5-0.5b/gate+up/m2048/baseline"));
  EXPECT_TRUE(ids.count("matmul-f32/embeddinggemma2/head/m128/tuned"));
}

}  // namespace
}  // namespace refract::suites::kernels
