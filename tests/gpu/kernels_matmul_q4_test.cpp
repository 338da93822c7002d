// matmul-q4 rows on the test adapter: the seed's int4 kernel, the tuned MatMulNBits GEMV (both
// row-sum paths) and GEMM, K not a multiple of 32 (a partial last block), N not a multiple of
// any tile, M = 1, and a planted GEMV that ignores the last partial block.
#include <gtest/gtest.h>

#include <set>

#include "base/error.h"
#include "gpu/transfer.h"
#include "ops/op_kinds.h"
#include "reference/llm_q8.h"
#include "reference/random_data.h"
#include "suites/kernels/matmul_q4_benchmark.h"
#include "testing/kernel_row.h"
#include "testing/planted_kernel.h"
#include "testing/shared_context.h"

namespace refract::suites::kernels {
namespace {

using refract::testing::PlantedKernel;
using refract::testing::RowRun;
using refract::testing::RunRow;
using refract::testing::SharedContext;

MatmulShape Shape(uint32_t m, uint32_t k, uint32_t n) { return {"test", "t", m, k, n}; }

KernelOptions OneCopy() { return KernelOptions{.cold_footprint_bytes = 1}; }

RowRun RunCase(Variant variant, const MatmulShape& shape,
               const KernelOptions& options = OneCopy()) {
  SCOPED_TRACE("M=" + std::to_string(shape.m) + " K=" + std::to_string(shape.k) +
               " N=" + std::to_string(shape.n));
  MatmulQ4Benchmark row(MatmulInfo("matmul-q4", shape, variant, "test"), variant, shape, options);
  return RunRow(row);
}

/// Options fixing the tuned row's settings (one copy).
KernelOptions Set(ops::Settings settings) {
  return KernelOptions{.cold_footprint_bytes = 1, .settings = std::move(settings)};
}

TEST(KernelsMatmulQ4, BaselineOnTheSeedLayout) {
  // N = 40: seed groups of 32 wrap across rows; K = 45: a partial K block of the logical matrix.
  EXPECT_EQ(RunCase(Variant::kBaseline, Shape(3, 45, 40)).record.elements, 3u * 40u);
  EXPECT_EQ(RunCase(Variant::kBaseline, Shape(1, 64, 37)).record.elements, 37u);
}

TEST(KernelsMatmulQ4, TunedGemvBothReductions) {
  const KernelOptions portable = Set({{"subgroups", 0}});
  RowRun result = RunCase(Variant::kTuned, Shape(1, 80, 37), portable);  // 2.5 blocks
  EXPECT_EQ(result.params.at("path").AsText(), "gemv");
  EXPECT_EQ(result.params.at("subgroups").AsInteger(), 0);
  EXPECT_EQ(result.record.elements, 37u);
  EXPECT_EQ(RunCase(Variant::kTuned, Shape(1, 7, 5), portable).record.elements, 5u);

  // 10 blocks over 8 invocations a row group.
  result = RunCase(Variant::kTuned, Shape(1, 300, 45), Set({{"wg", 64}, {"tpr", 8}, {"rows", 3}}));
  const DeviceLimits& limits = SharedContext().limits();
  EXPECT_EQ(result.params.at("subgroups").AsInteger(),
            limits.subgroups && limits.subgroup_min_size >= 8 ? 1 : 0);
  EXPECT_EQ(result.record.elements, 45u);
  // K = 4100: 129 blocks, the last partial, x staged in three chunks of 64 blocks, the last of 1;
  // the device's default rows a thread and one row (the default of a GPU for narrow matrices).
  EXPECT_EQ(RunCase(Variant::kTuned, Shape(1, 4100, 19)).record.elements, 19u);
  EXPECT_EQ(RunCase(Variant::kTuned, Shape(1, 4100, 19), Set({{"rows", 1}})).record.elements, 19u);
}

TEST(KernelsMatmulQ4, TunedGemvRecordsTheDefaultOfItsOp) {
  // The row runs the op's default rule for this device (ops' unit tests pin the rule).
  RowRun result = RunCase(Variant::kTuned, Shape(1, 64, 40));
  const ops::GemvConfig expected =
      ops::kGemvRules.Resolve({ops::Weights::kQ4, {1, 64, 40}}, SharedContext().limits());
  EXPECT_EQ(result.params.at("rows").AsInteger(), expected.rows);
  EXPECT_EQ(result.params.at("tpr").AsInteger(), expected.tpr);
  EXPECT_EQ(result.record.elements, 40u);
}

TEST(KernelsMatmulQ4, TunedGemm) {
  RowRun result = RunCase(Variant::kTuned, Shape(37, 80, 51));
  EXPECT_EQ(result.params.at("path").AsText(), "gemm");
  EXPECT_EQ(result.params.at("bk").AsInteger() % 8, 0);  // whole u32 words of codes
  EXPECT_EQ(result.record.elements, 37u * 51u);
  EXPECT_EQ(RunCase(Variant::kTuned, Shape(70, 45, 130)).record.elements, 70u * 130u);
  // Split K: 9.4 blocks over slices of whole steps of 32.
  RowRun split = RunCase(Variant::kTuned, Shape(3, 300, 40), Set({{"split_k", 3}}));
  EXPECT_EQ(split.params.at("split_k").AsInteger(), 3);
  EXPECT_EQ(split.record.elements, 3u * 40u);
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

RowRun RunQ8(const MatmulShape& shape, Q8Timing timing, ops::Settings settings = {}) {
  SCOPED_TRACE("M=" + std::to_string(shape.m) + " K=" + std::to_string(shape.k) +
               " N=" + std::to_string(shape.n));
  MatmulQ4Benchmark row(MatmulInfo("matmul-q4", shape, Variant::kTunedQ8, "test"),
                        Variant::kTunedQ8, shape,
                        {.cold_footprint_bytes = 1, .settings = std::move(settings)}, timing);
  return RunRow(row);
}

TEST(KernelsMatmulQ4, TunedQ8OnItsQuantizersOutput) {
  if (!SharedContext().limits().packed_4x8_dot) GTEST_SKIP() << "no dot4I8Packed on this device";
  // K = 80: 2.5 blocks (the last partial); K = 300: 9.4 blocks over 8 invocations a row group.
  for (Q8Timing timing : {Q8Timing::kPrequantized, Q8Timing::kWithQuantizer}) {
    RowRun run = RunQ8(Shape(1, 80, 37), timing);
    EXPECT_EQ(run.params.at("path").AsText(), "gemv-q8");
    // The outputs, and the quantizer's 3 blocks of 32 codes, scale and sum.
    EXPECT_EQ(run.record.elements, 37u + 3u * 34u);
    ASSERT_TRUE(run.record.model_deviation.has_value());
    EXPECT_GT(*run.record.model_deviation, 0.0);   // int8 activations are not f32 ones
    EXPECT_LT(*run.record.model_deviation, 0.02);  // but within 2 % of the product's scale
    for (uint32_t subgroups : {0u, 1u}) {
      if (subgroups == 1 && !SharedContext().limits().subgroups) continue;
      run = RunQ8(Shape(1, 300, 45), timing,
                  {{"wg", 64}, {"tpr", 8}, {"rows", 3}, {"subgroups", subgroups}});
      EXPECT_EQ(run.params.at("subgroups").AsInteger(), subgroups);
      EXPECT_EQ(run.record.elements, 45u + 10u * 34u);
    }
  }
}

// One, two and four blocks a lane in flight, tpr apart and adjacent: K = 300 (9.4 blocks: a
// lane's later loads past K, the last block partial) and K = 1100 (34.4 blocks over two trips of
// 4 · 8 at tpr 8), each with the other GEMV axes at odd values and at M = 3.
TEST(KernelsMatmulQ4, TunedQ8AtEveryBatchAndSpacing) {
  if (!SharedContext().limits().packed_4x8_dot) GTEST_SKIP() << "no dot4I8Packed on this device";
  for (uint32_t adjacent : {0u, 1u}) {
    for (uint32_t batch : {1u, 2u, 4u}) {
      SCOPED_TRACE("batch " + std::to_string(batch) + " adjacent " + std::to_string(adjacent));
      const ops::Settings axes = {{"batch", batch}, {"adjacent", adjacent}};
      auto with = [&](ops::Settings more) {
        more.insert(axes.begin(), axes.end());
        return more;
      };
      RowRun run = RunQ8(Shape(1, 300, 45), Q8Timing::kPrequantized,
                         with({{"wg", 64}, {"tpr", 8}, {"rows", 3}}));
      EXPECT_EQ(run.params.at("batch").AsInteger(), batch);
      EXPECT_EQ(run.params.at("adjacent").AsInteger(), adjacent);
      EXPECT_EQ(run.record.elements, 45u + 10u * 34u);
      run = RunQ8(Shape(1, 1100, 21), Q8Timing::kPrequantized, with({{"wg", 32}, {"tpr", 8}}));
      EXPECT_EQ(run.record.elements, 21u + 35u * 34u);
      run = RunQ8(Shape(3, 1100, 21), Q8Timing::kPrequantized, with({{"tpr", 4}}));
      EXPECT_EQ(run.record.elements, 3u * 21u + 3u * 35u * 34u);
    }
  }
}

// Adjacent blocks that step by tpr anyway: a lane reads blocks another lane reads, and skips its
// own.
TEST(KernelsMatmulQ4, PlantedQ8GemvSteppingAdjacentBlocksByTprIsCaught) {
  if (!SharedContext().limits().packed_4x8_dot) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted("llm_matmul_q4_tuned_gemv_q8",
                        "let apart = select(TPR, 1u, ADJACENT == 1u);", "let apart = TPR;");
  EXPECT_THROW(RunQ8(Shape(1, 1100, 21), Q8Timing::kPrequantized,
                     {{"batch", 2}, {"adjacent", 1}, {"tpr", 8}}),
               VerificationError);
}

// A lane of batch 4 that drops its last block of each trip: rows come out short.
TEST(KernelsMatmulQ4, PlantedQ8GemvSkippingABatchsLastBlockIsCaught) {
  if (!SharedContext().limits().packed_4x8_dot) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted(
      "llm_matmul_q4_tuned_gemv_q8",
      "for (var u = 0u; u < K_BATCH; u++) {\n      let kb = kb0 + u * apart;",
      "for (var u = 0u; u + 1u < K_BATCH; u++) {\n      let kb = kb0 + u * apart;");
  EXPECT_THROW(RunQ8(Shape(1, 1100, 21), Q8Timing::kPrequantized, {{"batch", 4}, {"tpr", 8}}),
               VerificationError);
}

// M > 1 (a few tokens at once): each row of x quantized in its own blocks (K = 80: the last of
// each row partial), every row of y from one pass over the weights; M = 8 with 8 invocations a
// row group over 9.4 blocks, both row sums. Outputs M · N and the quantizer's M · KB blocks.
TEST(KernelsMatmulQ4, TunedQ8OfSeveralActivationRows) {
  if (!SharedContext().limits().packed_4x8_dot) GTEST_SKIP() << "no dot4I8Packed on this device";
  for (Q8Timing timing : {Q8Timing::kPrequantized, Q8Timing::kWithQuantizer}) {
    RowRun run = RunQ8(Shape(3, 80, 37), timing);
    EXPECT_EQ(run.params.at("rows").AsInteger(), 1);  // M > 1: a row a row group
    EXPECT_EQ(run.record.elements, 3u * 37u + 3u * 3u * 34u);
    for (uint32_t subgroups : {0u, 1u}) {
      if (subgroups == 1 && !SharedContext().limits().subgroups) continue;
      run = RunQ8(Shape(8, 300, 45), timing, {{"wg", 64}, {"tpr", 8}, {"subgroups", subgroups}});
      EXPECT_EQ(run.record.elements, 8u * 45u + 8u * 10u * 34u);
    }
  }
  // M = 2 with 4 rows a row group: every partial sum kept, each block's codes loaded once for
  // the four rows (45 rows: the last group holds one).
  const RowRun run =
      RunQ8(Shape(2, 300, 45), Q8Timing::kPrequantized, {{"wg", 64}, {"tpr", 8}, {"rows", 4}});
  EXPECT_EQ(run.record.elements, 2u * 45u + 2u * 10u * 34u);
}

TEST(KernelsMatmulQ4, TunedQ8RefusesMorePartialSumsThanItKeeps) {
  const MatmulShape shape = Shape(8, 64, 16);
  MatmulQ4Benchmark row(MatmulInfo("matmul-q4", shape, Variant::kTunedQ8, "test"),
                        Variant::kTunedQ8, shape, Set({{"rows", 2}}), Q8Timing::kPrequantized);
  const std::string missing = row.MissingRequirement(SharedContext()).value_or("(none)");
  if (!SharedContext().limits().packed_4x8_dot) {
    EXPECT_NE(missing.find("dot4I8Packed"), std::string::npos) << missing;
    return;
  }
  EXPECT_NE(missing.find("rows x M partial sums, at most 8"), std::string::npos) << missing;
  const MatmulShape nine = Shape(9, 64, 16);
  MatmulQ4Benchmark wide(MatmulInfo("matmul-q4", nine, Variant::kTunedQ8, "test"),
                         Variant::kTunedQ8, nine, OneCopy(), Q8Timing::kPrequantized);
  EXPECT_NE(wide.MissingRequirement(SharedContext()).value_or("(none)").find("M from 1 to 8"),
            std::string::npos);
}

// Every activation row weighed with row 0's codes: rows 1 and 2 of y come out wrong.
TEST(KernelsMatmulQ4, PlantedQ8GemvReadingOneActivationRowIsCaught) {
  if (!SharedContext().limits().packed_4x8_dot) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted("llm_matmul_q4_tuned_gemv_q8", "let xb = m * blocks + kb;", "let xb = kb;");
  EXPECT_THROW(RunQ8(Shape(3, 80, 37), Q8Timing::kPrequantized), VerificationError);
}

// The quantizer's block reductions both ways (subgroup shuffles where the device has subgroups,
// workgroup memory), as its own op: K = 80 (a partial last block), 3 rows, 32 invocations a
// workgroup (8 blocks, the last workgroup partly past them), each row checked against its rule.
TEST(KernelsMatmulQ4, QuantizerBothBlockReductions) {
  if (!SharedContext().limits().packed_4x8_dot) GTEST_SKIP() << "no dot4I8Packed on this device";
  gpu::Context& context = SharedContext();
  const ops::QuantizeShape shape{.k = 80, .m = 3};
  constexpr size_t kRowBlocks = 3;
  const std::vector<float> x = reference::RandomFloats(size_t{shape.m} * shape.k, 31, -3.0f, 3.0f);
  for (uint32_t subgroups : {0u, 1u}) {
    if (subgroups == 1 && !context.limits().subgroups) continue;
    SCOPED_TRACE("subgroups " + std::to_string(subgroups));
    const ops::QuantizeConfig config = ops::kQuantizeQ8Rules.Resolve(
        shape, context.limits(), {{"wg", 32}, {"subgroups", subgroups}});
    const ops::Op quantize(ops::kQuantizeQ8, context, shape, config, "quantizer test");
    const uint32_t usage = gpu::kUsageStorage | gpu::kUsageCopySrc;
    const uint64_t blocks = shape.m * kRowBlocks;
    const gpu::Buffer codes = context.CreateBuffer(blocks * 32, usage, "codes");
    const gpu::Buffer scale_sums = context.CreateBuffer(blocks * 8, usage, "scales and sums");
    context.RunPass(quantize.Record(context, {.x = gpu::Upload(context, x, gpu::kUsageStorage, "x"),
                                              .codes = codes,
                                              .scale_sums = scale_sums}),
                    1, false);
    const std::vector<uint32_t> words = gpu::Download<uint32_t>(context, codes);
    const std::vector<float> sums = gpu::Download<float>(context, scale_sums);
    for (uint32_t r = 0; r < shape.m; ++r) {
      EXPECT_EQ(reference::CheckQ8Activations(
                    "row " + std::to_string(r),
                    std::span(words).subspan(r * kRowBlocks * 8, kRowBlocks * 8),
                    std::span(sums).subspan(r * kRowBlocks * 2, kRowBlocks * 2),
                    std::span(x).subspan(size_t{r} * shape.k, shape.k))
                    .elements,
                kRowBlocks * 34);
    }
  }
}

// The subgroup shuffles taking the max over two of a block's four invocations: a block whose
// largest value sits in the other pair gets a scale too small.
TEST(KernelsMatmulQ4, PlantedQuantizerShufflingHalfABlockIsCaught) {
  if (!SharedContext().limits().packed_4x8_dot || !SharedContext().limits().subgroups) {
    GTEST_SKIP() << "no dot4I8Packed or no subgroups on this device";
  }
  PlantedKernel planted("llm_quantize_block_subgroup_part",
                        "return max(m, subgroupShuffleXor(m, 2u));", "return m;");
  EXPECT_THROW(RunQ8(Shape(3, 80, 37), Q8Timing::kWithQuantizer), VerificationError);
}

// A row group's codes loaded once for its rows, but every row weighed with its first row's
// nibbles: rows 2 and 3 of each group of three come out as row 1.
TEST(KernelsMatmulQ4, PlantedQ8GemvWeighingOneRowsWeightsIsCaught) {
  if (!SharedContext().limits().packed_4x8_dot) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted("llm_matmul_q4_tuned_gemv_q8", "block_dot(nibbles[r], x0, x1)",
                        "block_dot(nibbles[0], x0, x1)");
  EXPECT_THROW(
      RunQ8(Shape(1, 300, 45), Q8Timing::kPrequantized, {{"wg", 64}, {"tpr", 8}, {"rows", 3}}),
      VerificationError);
}

// The quantizer reading row 0 for every row: the codes of rows 1 and 2 disagree with the model.
TEST(KernelsMatmulQ4, PlantedQuantizerReadingOneRowIsCaught) {
  if (!SharedContext().limits().packed_4x8_dot) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted("llm_quantize_q8", "x[row * k + min(i, k - 1u)]", "x[min(i, k - 1u)]");
  EXPECT_THROW(RunQ8(Shape(3, 80, 37), Q8Timing::kWithQuantizer), VerificationError);
}

TEST(KernelsMatmulQ4, PlantedQ8GemvIgnoringTheBlockSumIsCaught) {
  if (!SharedContext().limits().packed_4x8_dot) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted("llm_matmul_q4_tuned_gemv_q8", " - 8i * i32(ds.y);", ";");
  EXPECT_THROW(RunQ8(Shape(1, 80, 37), Q8Timing::kPrequantized), VerificationError);
}

TEST(KernelsMatmulQ4, PlantedQuantizerTruncatingItsCodesIsCaught) {
  if (!SharedContext().limits().packed_4x8_dot) GTEST_SKIP() << "no dot4I8Packed on this device";
  PlantedKernel planted("llm_quantize_q8_part", "round(values[i] / d)", "trunc(values[i] / d)");
  EXPECT_THROW(RunQ8(Shape(1, 80, 37), Q8Timing::kWithQuantizer), VerificationError);
}

TEST(KernelsMatmulQ4, CatalogHasBothVariantsOfEveryShape) {
  const auto rows = MatmulQ4Benchmarks();
  std::set<std::string> ids;
  for (const auto& row : rows) ids.insert(row->info().id);
  EXPECT_EQ(ids.size(), rows.size());
  EXPECT_TRUE(ids.count("matmul-q4/reference/ffn/m1/tuned"));
  EXPECT_TRUE(ids.count("matmul-q4/qwen2.5-0.5b/lm-head/m1/baseline"));
  EXPECT_TRUE(ids.count("matmul-q4/reference/ffn/m1/tuned-q8"));
  EXPECT_TRUE(ids.count("matmul-q4/reference/ffn/m1/tuned-q8+quantize"));
  EXPECT_FALSE(ids.count("matmul-q4/qwen2.5-0.5b/down/m50/tuned-q8"));  // M = 1 only
}

}  // namespace
}  // namespace refract::suites::kernels
