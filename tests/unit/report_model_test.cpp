// The derived figures of the HTML report's data (report/report_model.h): roofline placement
// and ceilings, sweep curves and cliffs, the decode split, the side-by-side ratios.
#include "report/report_model.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "report/html_page.h"
#include "results/run_file.h"

namespace refract::report {
namespace {

using nlohmann::json;

LabeledRun Fixture(const std::string& name) {
  return {name + ".json", results::ReadRunFile(std::string(REFRACT_SOURCE_DIR) +
                                               "/tests/fixtures/" + name + ".json")};
}

const results::ResultRow& RowById(const LabeledRun& run, const std::string& id) {
  for (const results::ResultRow& row : run.record.rows) {
    if (row.id == id) return row;
  }
  throw std::runtime_error("no row " + id);
}

TEST(ReportModel, RooflineHasAPointPerMeasuredKernelRowAndTheSummaryCeilings) {
  const LabeledRun kernels = Fixture("kernels");
  const json roofline = BuildRooflineModel({kernels});
  ASSERT_FALSE(roofline.is_null());
  EXPECT_EQ(roofline["points"].size(), 10u);  // 12 rows: one error, one skipped
  ASSERT_EQ(roofline["ceilings"].size(), 1u);
  EXPECT_EQ(roofline["ceilings"][0]["bandwidth_Bps"], 18.5e9);
  EXPECT_EQ(roofline["ceilings"][0]["fma_flops"], 96e9);
  EXPECT_EQ(roofline["ceilings"][0]["bandwidth_source"], "summary read_bandwidth_Bps");
  EXPECT_NEAR(roofline["ceilings"][0]["ridge"].get<double>(), 96.0 / 18.5, 1e-12);

  const results::ResultRow& matmul = RowById(kernels, "matmul-f32-128x896x896-tuned");
  for (const json& point : roofline["points"]) {
    if (point["id"] == matmul.id) {
      EXPECT_EQ(point["variant"], "tuned");
      EXPECT_FALSE(point["zero_flop"].get<bool>());
      EXPECT_DOUBLE_EQ(point["x"].get<double>(), matmul.roofline->flops / matmul.roofline->bytes);
      EXPECT_DOUBLE_EQ(point["y"].get<double>(),
                       matmul.roofline->flops / (matmul.stats.min / 1000));
    }
  }
}

TEST(ReportModel, RowsWithoutArithmeticSitAtTheLeftEdgeBelowTheBandwidthRoof) {
  const LabeledRun kernels = Fixture("kernels");
  const json roofline = BuildRooflineModel({kernels});
  const double x_floor = roofline["x_floor"].get<double>();
  // The smallest positive intensity is just under 0.5 FLOP/B (a matvec): the floor is two
  // octaves below the power of two under it.
  EXPECT_DOUBLE_EQ(x_floor, 0.0625);
  const results::ResultRow& embedding = RowById(kernels, "embedding-128x896-tuned");
  int zero_flop = 0;
  for (const json& point : roofline["points"]) {
    if (!point["zero_flop"].get<bool>()) continue;
    ++zero_flop;
    EXPECT_DOUBLE_EQ(point["x"].get<double>(), x_floor);
    if (point["id"] == embedding.id) {
      EXPECT_DOUBLE_EQ(point["y"].get<double>(), embedding.roofline->fraction * 18.5e9 * x_floor);
    }
  }
  EXPECT_EQ(zero_flop, 2);
}

TEST(ReportModel, RooflineCeilingsFallBackToTheRowsThenToARunOnTheSameAdapter) {
  LabeledRun kernels = Fixture("kernels");
  kernels.record.summary.clear();
  json roofline = BuildRooflineModel({kernels});
  EXPECT_EQ(roofline["ceilings"][0]["bandwidth_Bps"], 18.5e9);  // every row carries its bound
  EXPECT_EQ(roofline["ceilings"][0]["bandwidth_source"], "the rows' rooflines");

  // Only bandwidth-bound rows: the FMA rate comes from a ceilings run on the same adapter.
  std::erase_if(kernels.record.rows, [](const results::ResultRow& row) {
    return row.roofline && row.roofline->bound == "fma";
  });
  LabeledRun ceilings{"ceilings.json", {}};
  ceilings.record.device = kernels.record.device;
  ceilings.record.summary = {{"f32_fma_flops", 80e9}};
  roofline = BuildRooflineModel({kernels, ceilings});
  EXPECT_EQ(roofline["ceilings"][0]["fma_flops"], 80e9);
  EXPECT_EQ(roofline["ceilings"][0]["fma_source"], "run ceilings.json");
  ceilings.record.device.device = "another GPU";
  roofline = BuildRooflineModel({kernels, ceilings});
  EXPECT_TRUE(roofline["ceilings"][0]["fma_flops"].is_null());
}

TEST(ReportModel, NoRooflineWithoutRooflineRows) {
  EXPECT_TRUE(BuildRooflineModel({Fixture("sweep"), Fixture("decode")}).is_null());
}

// The fixture is a real run's output: the bandwidth and reduction rows of the H200's sweeps
// (docs/results/archive/h200-sweeps.json).
TEST(ReportModel, SweepChartsTakeTheBestAtEachXAndMarkTheCliff) {
  const LabeledRun sweep = Fixture("sweep");
  const json sweeps = BuildSweepModels({Fixture("kernels"), sweep});  // kernels: not a sweep
  ASSERT_EQ(sweeps.size(), 3u);
  const json& copy = sweeps[0];
  EXPECT_EQ(copy["file"], 1);
  EXPECT_EQ(copy["category"], "bandwidth/copy");
  EXPECT_EQ(copy["axis"], "bytes");  // the rows' main_axis
  EXPECT_EQ(copy["log_base"], 2);
  EXPECT_EQ(copy["y_kind"], "metric");
  EXPECT_EQ(copy["points"].size(), 17u);  // 16 KiB .. 1 GiB
  double best = 0, best_before_cliff = 0;
  for (const json& point : copy["points"]) {
    best = std::max(best, point["y"].get<double>());
    if (point["x"].get<double>() < 32 << 20) best_before_cliff = best;
    EXPECT_LE(point["lo"].get<double>(), point["y"].get<double>());
    EXPECT_GE(point["hi"].get<double>(), point["y"].get<double>());
  }
  EXPECT_EQ(copy["winner"]["y"].get<double>(), best);
  ASSERT_EQ(copy["cliffs"].size(), 1u);  // the L2: a 32 MiB copy moves 64 MiB
  const json& cliff = copy["cliffs"][0];
  EXPECT_EQ(cliff["x"], 32 << 20);
  const double value = RowById(sweep, "bandwidth/copy/32MiB").metric_value;
  EXPECT_NEAR(cliff["depth"].get<double>(), 1 - value / best_before_cliff, 1e-12);
  EXPECT_NE(cliff["cause"].get<std::string>().find("likely the buffer outgrew a cache"),
            std::string::npos)
      << cliff["cause"];
  EXPECT_EQ(sweeps[1]["category"], "bandwidth/read");
  EXPECT_EQ(sweeps[1]["cliffs"].size(), 2u);  // past the L2 at 64 MiB, and at 1 GiB

  const json& reduction = sweeps[2];
  EXPECT_EQ(reduction["category"], "reduction/sum-4m");
  EXPECT_EQ(reduction["axis"], "wg");
  EXPECT_EQ(reduction["points"].size(), 5u);  // wg 64 .. 1024, the best items at each
  EXPECT_EQ(reduction["configurations"], 31);
  EXPECT_EQ(reduction["failed"], 0);
  EXPECT_EQ(reduction["winner"]["id"], "reduction/sum-4m/items=32,subgroups=0,wg=64");
}

TEST(ReportModel, SweepAxisCanBeNamedAndFallsBackToTime) {
  LabeledRun sweep = Fixture("sweep");
  sweep.record.options["main_axis"] = "items";
  for (results::ResultRow& row : sweep.record.rows) {
    row.params.erase("main_axis");  // the run's option names the axis then
    row.metric_value = results::kNoValue;
  }
  const json sweeps = BuildSweepModels({sweep});
  ASSERT_EQ(sweeps.size(), 3u);
  EXPECT_EQ(sweeps[0]["axis"], "bytes");  // no "items" there: the first numeric param that varies
  EXPECT_EQ(sweeps[2]["axis"], "items");
  EXPECT_EQ(sweeps[2]["y_kind"], "time");
  EXPECT_EQ(sweeps[2]["points"].size(), 6u);  // items 1 .. 32
  // Lower is better in time: the winner is the smallest y.
  for (const json& point : sweeps[2]["points"]) {
    EXPECT_GE(point["y"].get<double>(), sweeps[2]["winner"]["y"].get<double>());
  }
}

TEST(ReportModel, DecodeHasACardForEachDecodeRow) {
  // A real run (an H100, three contexts of Qwen2.5-0.5B): a section a decode row, none for its
  // ceiling rows or for another command's run.
  const LabeledRun decode = Fixture("decode");
  const json sections = BuildDecodeModels({Fixture("kernels"), decode});
  ASSERT_EQ(sections.size(), 3u);
  for (const json& section : sections) {
    EXPECT_EQ(section["file"], 1);
    EXPECT_EQ(section["status"], "ok");
    const results::ResultRow* row = nullptr;
    for (const results::ResultRow& r : decode.record.rows) {
      if (r.id == section["id"]) row = &r;
    }
    ASSERT_NE(row, nullptr);
    EXPECT_NEAR(section["tokens_per_s"].get<double>(), row->metric_value, 1e-9);
    EXPECT_NEAR(section["dispatch_fraction"].get<double>(), row->decode->dispatch_fraction, 1e-12);
    uint64_t dispatches = 0;
    for (const json& part : section["split"]) {
      dispatches += part["dispatches"].get<uint64_t>();
      if (part["time_ms"].is_null()) continue;  // within the runs' noise
      // A kind's share is of the step timed beside it; its time a dispatch is set by the floor.
      EXPECT_NEAR(part["share"].get<double>(),
                  part["time_ms"].get<double>() / row->decode->split_ms, 1e-12);
      const double each = part["time_ms"].get<double>() / part["dispatches"].get<double>();
      EXPECT_NE(part["each_text"].get<std::string>().find(
                    fmt::format("({:.1f}x the floor)", each / row->decode->dispatch_floor_ms)),
                std::string::npos)
          << part["each_text"];
    }
    EXPECT_EQ(dispatches, row->decode->dispatches);  // every dispatch of the step has a kind
    // The fixture predates the kinds' bytes: no bytes, no bound, said so.
    for (const json& part : section["split"]) {
      EXPECT_TRUE(part["bytes"].is_null());
      EXPECT_EQ(part["bytes_text"], "—");
    }
    EXPECT_NE(section["counts_text"].get<std::string>().find(
                  "246 dispatches a token, 1 pass per 16 tokens, 1 submit per 16 tokens"),
              std::string::npos);
  }
}

TEST(ReportModel, APrefillRowCountsAPrefillsDispatches) {
  // A prefill row's counts and bounds are of a whole prefill: two passes and one submit a prefill.
  LabeledRun decode = Fixture("decode");
  auto decode_row = std::find_if(decode.record.rows.begin(), decode.record.rows.end(),
                                 [](const results::ResultRow& r) { return r.decode.has_value(); });
  ASSERT_NE(decode_row, decode.record.rows.end());
  results::ResultRow& row = *decode_row;
  row.params["phase"] = "prefill";
  row.decode->dispatches = 390;
  row.decode->passes = 2;
  row.decode->submits = 1;
  const json sections = BuildDecodeModels({decode});
  bool found = false;
  for (const json& section : sections) {
    if (section["id"] != row.id) continue;
    found = true;
    EXPECT_TRUE(section["dispatch_text"].get<std::string>().find(" a prefill; ") !=
                std::string::npos)
        << section["dispatch_text"];
    EXPECT_EQ(section["counts_text"],
              "390 dispatches a prefill, 2 passes a prefill, 1 submit a prefill");
  }
  EXPECT_TRUE(found);
}

TEST(ReportModel, AKindsBytesGiveItsBandwidthBoundAndTheFractionOfItReached) {
  LabeledRun decode = Fixture("decode");
  auto decode_row = std::find_if(decode.record.rows.begin(), decode.record.rows.end(),
                                 [](const results::ResultRow& r) { return r.decode.has_value(); });
  ASSERT_NE(decode_row, decode.record.rows.end());
  results::DecodeFigures& d = *decode_row->decode;
  d.read_bandwidth = 3e12;
  d.split.front().ms = 0.01;
  d.split.front().bytes = 6e6;  // 2 µs at 3 TB/s: 20 % of 10 µs
  const json sections = BuildDecodeModels({decode});
  bool found = false;
  for (const json& section : sections) {
    if (section["id"] != decode_row->id) continue;
    found = true;
    const json& kind = section["split"][0];
    EXPECT_NEAR(kind["bandwidth_fraction"].get<double>(), 0.2, 1e-12);
    EXPECT_EQ(kind["bytes_text"], "6.00 MB, bound 2.00 µs at read-linear, 20% of it");
  }
  EXPECT_TRUE(found);
}

TEST(ReportModel, AFailedDecodeRowSaysWhy) {
  LabeledRun decode = Fixture("decode");
  for (results::ResultRow& row : decode.record.rows) {
    row.status = results::RowStatus::kError;
    row.message = "decode step 0 (position 128): logits disagree";
    row.decode.reset();
  }
  const json sections = BuildDecodeModels({decode});
  ASSERT_EQ(sections.size(), 3u);
  EXPECT_TRUE(sections[0]["tokens_per_s"].is_null());
  EXPECT_EQ(sections[0]["tokens_text"], "no figure");
  EXPECT_EQ(sections[0]["message"], "decode step 0 (position 128): logits disagree");
  EXPECT_EQ(sections[0]["dispatch_text"], "not measured");
}

TEST(ReportModel, SideBySideHoldsRowsOfSeveralRunsWithTheirTimeRatio) {
  LabeledRun before = Fixture("kernels");
  LabeledRun after = before;
  after.label = "after.json";
  results::ResultRow& slower = after.record.rows[0];
  slower.stats.min *= 2;
  const json table = BuildSideBySideModel({before, after, Fixture("decode")});
  ASSERT_FALSE(table.is_null());
  EXPECT_EQ(table["labels"].size(), 3u);
  EXPECT_EQ(table["rows"].size(), before.record.rows.size());  // decode rows: in one run only
  const json& first = table["rows"][0];
  EXPECT_EQ(first["id"], slower.id);
  EXPECT_TRUE(first["cells"][0]["ratio"].is_null());
  EXPECT_DOUBLE_EQ(first["cells"][1]["ratio"].get<double>(), 2);
  EXPECT_TRUE(first["cells"][2].is_null());
  EXPECT_TRUE(BuildSideBySideModel({before}).is_null());
}

TEST(ReportModel, ModelHasEverySectionAndEscapesForAScriptElement) {
  const json model = BuildReportModel({Fixture("kernels"), Fixture("sweep"), Fixture("decode")});
  EXPECT_EQ(model["files"].size(), 3u);
  EXPECT_EQ(model["rows"].size(), 12u + 65u + 5u);
  EXPECT_TRUE(model["comparison"].is_null());
  EXPECT_TRUE(model["side_by_side"].is_null());  // no row in two runs
  const std::string embedded = EmbeddableJson({{"label", "</script>&"}});
  EXPECT_EQ(embedded, "{\"label\":\"\\u003c/script\\u003e\\u0026\"}");
  EXPECT_EQ(json::parse(embedded)["label"], "</script>&");
}

}  // namespace
}  // namespace refract::report
