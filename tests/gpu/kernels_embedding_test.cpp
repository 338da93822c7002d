// embedding rows on the test adapter: both variants, the tuned vec4 and scalar paths, T = 1, a
// vocabulary capped to what may be bound, and the cold rotation's own ids per copy.
#include <gtest/gtest.h>

#include "suites/kernels/embedding_benchmark.h"
#include "testing/kernel_row.h"
#include "testing/shared_context.h"

namespace refract::suites::kernels {
namespace {

using refract::testing::RowRun;
using refract::testing::RunRow;
using refract::testing::SharedContext;

RowRun RunCase(Variant variant, uint32_t tokens, uint32_t hidden, uint32_t vocab,
               uint64_t max_table_bytes = 0) {
  SCOPED_TRACE("T=" + std::to_string(tokens) + " hidden=" + std::to_string(hidden));
  const EmbeddingRowShape shape{"test", tokens, hidden, vocab};
  bench::BenchmarkInfo info{.id = "embedding/test", .category = "embedding"};
  EmbeddingBenchmark row(info, variant, shape, {.cold_footprint_bytes = 1}, max_table_bytes);
  return RunRow(row);
}

TEST(KernelsEmbedding, Baseline) {
  EXPECT_EQ(RunCase(Variant::kBaseline, 7, 6, 50).record.elements, 42u);
  EXPECT_EQ(RunCase(Variant::kBaseline, 1, 896, 50).record.elements, 896u);
}

TEST(KernelsEmbedding, TunedVec4AndScalarPaths) {
  RowRun vec4 = RunCase(Variant::kTuned, 7, 12, 50);
  EXPECT_EQ(vec4.params.at("path").AsText(), "vec4");
  EXPECT_EQ(vec4.record.elements, 84u);
  EXPECT_EQ(RunCase(Variant::kTuned, 1, 8, 3).record.elements, 8u);
  RowRun scalar = RunCase(Variant::kTuned, 7, 6, 50);  // 42 elements: 10 whole fours and 2
  EXPECT_EQ(scalar.params.at("path").AsText(), "scalar");
  EXPECT_EQ(scalar.record.elements, 42u);
  EXPECT_EQ(RunCase(Variant::kTuned, 1, 3, 5).record.elements, 3u);
}

TEST(KernelsEmbedding, VocabularyCappedToTheTableLimitIsRecorded) {
  RowRun result = RunCase(Variant::kTuned, 5, 8, 1000, /*max_table_bytes=*/100 * 8 * 4);
  EXPECT_EQ(result.params.at("vocab").AsInteger(), 100);
}

TEST(KernelsEmbedding, CopiesHaveTheirOwnIds) {
  // 3 tokens × (8 + 1) × 4 bytes read an invocation; a footprint of 3 such spans: 3 copies.
  KernelOptions rotated{.cold_footprint_bytes = 3 * 3 * 9 * 4};
  const EmbeddingRowShape shape{"test", 3, 8, 40};
  EmbeddingBenchmark row({.id = "embedding/test"}, Variant::kTuned, shape, rotated);
  row.Prepare(SharedContext());
  EXPECT_EQ(row.InvocationsPerDispatch(), 3u);
  EXPECT_DOUBLE_EQ(row.WorkPerDispatch(), 3 * (3 * 4 + 2 * 3 * 8 * 4));
  EXPECT_EQ(row.Verify(SharedContext()).elements, 3u * 8u);
  SharedContext().RunPass(row.Dispatches(), 1, false);
}

TEST(KernelsEmbedding, Catalog) {
  const auto rows = EmbeddingBenchmarks();
  ASSERT_EQ(rows.size(), 10u);
  EXPECT_EQ(rows.back()->info().id, "embedding/embeddinggemma2/t128/tuned");
}

}  // namespace
}  // namespace refract::suites::kernels
