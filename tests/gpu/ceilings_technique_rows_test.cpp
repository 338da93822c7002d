// The 18 technique rows (category algorithm) on the machine's Vulkan adapter (lavapipe without
// a GPU): each prepares its timed problem and verifies against its CPU model, planted wrong
// models are caught, and two rows run end to end through RunCeilings.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "gpu/context.h"
#include "reference/technique_models.h"
#include "suites/ceilings/ceilings_rules.h"
#include "suites/ceilings/technique_rows.h"
#include "testing/row_lookup.h"
#include "testing/shared_context.h"

namespace refract::suites::ceilings {
namespace {

using refract::testing::GtestName;
using refract::testing::SharedContext;

const std::vector<std::string>& TechniqueIds() {
  static const std::vector<std::string> kIds = {
      "workgroup-64",       "workgroup-128",       "workgroup-256",       "layout-aos",
      "layout-soa",         "layout-aosoa",        "tile-direct",         "tile-shared",
      "tile-shared-padded", "reduction-serial",    "reduction-workgroup", "reduction-subgroup",
      "branch-vec4-select", "branch-vec4-if",      "atomic-direct",       "atomic-workgroup",
      "atomic-sharded",     "read-dependent-chain"};
  return kIds;
}

std::unique_ptr<bench::Benchmark> TakeRow(const std::string& id) {
  for (auto& row : MakeTechniqueRows()) {
    if (row->info().id == id) return std::move(row);
  }
  return nullptr;
}

class TechniqueRowTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TechniqueRowTest, PreparesAndVerifies) {
  std::unique_ptr<bench::Benchmark> row = TakeRow(GetParam());
  ASSERT_TRUE(row) << GetParam();
  gpu::Context& context = SharedContext();
  if (std::optional<std::string> missing = row->MissingRequirement(context)) {
    GTEST_SKIP() << GetParam() << ": " << *missing;
  }
  ASSERT_NO_THROW(row->Prepare(context));
  VerificationRecord record;
  EXPECT_NO_THROW(record = row->Verify(context));
  EXPECT_GT(record.elements, 0u);
  EXPECT_EQ(row->Dispatches().empty(), false);
  ASSERT_EQ(row->info().params.count("buffer_bytes"), 1u);
  EXPECT_GT(row->info().params.at("buffer_bytes").AsInteger(), 0);
  row->Release();
  EXPECT_TRUE(row->Dispatches().empty());
}

INSTANTIATE_TEST_SUITE_P(Rows, TechniqueRowTest, ::testing::ValuesIn(TechniqueIds()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return GtestName(info.param);
                         });

// docs/CEILINGS.md lists 18 technique ids (3 + 3 + 3 + 3 + 2 + 3 + 1).
TEST(TechniqueRows, CatalogHasTheEighteenRowsWithFixedWork) {
  std::vector<std::unique_ptr<bench::Benchmark>> rows = MakeTechniqueRows();
  ASSERT_EQ(rows.size(), TechniqueIds().size());
  std::set<std::string> ids;
  for (const auto& row : rows) {
    const bench::BenchmarkInfo& info = row->info();
    ids.insert(info.id);
    EXPECT_EQ(info.category, "algorithm") << info.id;
    EXPECT_FALSE(info.unit.empty()) << info.id;
    EXPECT_NE(info.description.find(" / time"), std::string::npos)
        << info.id << ": the description states the metric's formula";
    EXPECT_FALSE(row->HasWorkKnob()) << info.id;
    EXPECT_GT(row->WorkPerDispatch(), 0.0) << info.id;
  }
  EXPECT_EQ(ids.size(), rows.size()) << "ids are unique";
  for (const std::string& id : TechniqueIds()) EXPECT_EQ(ids.count(id), 1u) << id;
  EXPECT_EQ(TakeRow("reduction-subgroup")->info().needs, "subgroups");
  EXPECT_EQ(TakeRow("read-dependent-chain")->WorkPerDispatch(), 1024.0 * 4096.0);
  EXPECT_EQ(TakeRow("tile-shared")->WorkPerDispatch(), 2048.0 * 2048.0);
}

TEST(TechniqueRows, VerifyBeforePrepareIsAnError) {
  std::unique_ptr<bench::Benchmark> row = TakeRow("atomic-direct");
  EXPECT_THROW(row->Verify(SharedContext()), Error);
}

// A test must be able to fail: the real atomic kernels against a model that files one bin-0
// key under bin 1.
TEST(TechniquePlantedError, HistogramModelWithAWrongBinIsCaught) {
  auto wrong_bin = [](std::span<const uint32_t> keys) {
    std::vector<uint32_t> bins = reference::Histogram32(keys);
    --bins[0];
    ++bins[1];
    return bins;
  };
  for (AtomicVariant variant : {AtomicVariant::kDirect, AtomicVariant::kSharded}) {
    HistogramRow row(variant, wrong_bin);
    row.Prepare(SharedContext());
    try {
      row.Verify(SharedContext());
      ADD_FAILURE() << row.info().id << ": the wrong bin was not caught";
    } catch (const VerificationError& error) {
      EXPECT_NE(std::string(error.what()).find("2 of 32 outputs disagree"), std::string::npos)
          << error.what();
    }
  }
}

// The chain's end indices are exact: a model that stops one hop short disagrees on every chain.
TEST(TechniquePlantedError, ChainModelOneHopShortIsCaught) {
  DependentChainRow row(
      [](std::span<const uint32_t> next, uint32_t chains, uint32_t start_stride, uint32_t hops) {
        return reference::ChainEnds(next, chains, start_stride, hops - 1);
      });
  row.Prepare(SharedContext());
  try {
    row.Verify(SharedContext());
    ADD_FAILURE() << "the short chain was not caught";
  } catch (const VerificationError& error) {
    EXPECT_NE(std::string(error.what()).find("1024 of 1024 outputs disagree"), std::string::npos)
        << error.what();
  }
}

TEST(TechniqueRowsEndToEnd, TwoRowsRunAndGivePositiveRates) {
  std::vector<std::unique_ptr<bench::Benchmark>> rows;
  rows.push_back(TakeRow("layout-soa"));
  rows.push_back(TakeRow("atomic-workgroup"));
  bench::RunOptions options;
  options.scheduler.stopping.min_rounds = 1;
  options.scheduler.stopping.max_rounds = 2;
  options.scheduler.idle_gap_ms = 0;
  options.calibration.batch_target_ms = 10;
  std::vector<results::ResultRow> results = refract::testing::RunCeilingsRows(rows, options);
  ASSERT_EQ(results.size(), 2u);
  for (const results::ResultRow& row : results) {
    SCOPED_TRACE(row.id);
    ASSERT_EQ(row.status, results::RowStatus::kOk) << row.message;
    EXPECT_EQ(row.category, "algorithm");
    EXPECT_TRUE(std::isfinite(row.metric_value));
    EXPECT_GT(row.metric_value, 0.0);
    EXPECT_FALSE(row.times_ms.empty());
  }
  EXPECT_EQ(results[0].unit, "particle/s");
  EXPECT_EQ(results[1].unit, "key/s");
  EXPECT_EQ(results[1].work_per_dispatch, 1048576.0);
}

}  // namespace
}  // namespace refract::suites::ceilings
