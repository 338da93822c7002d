// The data of the HTML report: everything the page shows, derived from plain run records and
// embedded in the page as one JSON document (the page's script only draws it). Built here, in
// C++, so that every derived figure (roofline placement, sweep curves, cliffs, decode split,
// side-by-side ratios) is tested without a browser; docs/REPORTS.md describes each section.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "results/run_record.h"

namespace refract::report {

/// One run shown in a report, with the name it goes by there (its file name, or the command).
struct LabeledRun {
  std::string label;
  results::RunRecord record;
};

/// The report's data: {"title", "files", "param_names", "rows", "roofline", "sweeps",
/// "decode", "side_by_side", "comparison"}. A section the runs have nothing for is null or
/// empty: the roofline needs rows with a `roofline`; sweeps need a run whose command starts
/// with "sweep" or rows flagged "cliff"; decode needs a run whose command is "decode";
/// side_by_side needs a row (same id and params) present in two runs or more. "comparison" is
/// null (compare adds it). Rows keep the runs' order and each run's row order.
nlohmann::json BuildReportModel(const std::vector<LabeledRun>& runs);

/// The roofline section, or null: per run with roofline rows its ceilings (read bandwidth and
/// FMA rate: from the run's summary "read_bandwidth_Bps" / "f32_fma_flops", else from its rows'
/// rooflines, else from another run on the same adapter) and a point per ok roofline row at
/// (intensity, achieved FLOP/s). A row without arithmetic (0 FLOP) sits at the chart's left edge
/// `x_floor`, at its fraction of the bandwidth roof there. `rows` are the model's rows (their
/// index is the point's "row").
nlohmann::json BuildRooflineModel(const std::vector<LabeledRun>& runs);

/// The sweep charts (an array): per sweep run and category, the best row at each value of the
/// main axis (the run's option "main_axis" when it names a numeric param of the rows, else the
/// first numeric param, by name, that varies), y = throughput (when every row has a metric in
/// one unit; higher is better) or else time (lower is better), the p10–p90 band of that best
/// row, the fastest row overall, and the rows flagged "cliff" with their depth (1 − their value
/// over the best at any smaller x, in throughput terms) and cause (the flag's reason).
nlohmann::json BuildSweepModels(const std::vector<LabeledRun>& runs);

/// The decode sections (an array): one per row of category "decode" of a run whose command is
/// "decode": its tokens/s (null unless ok) and their p10–p90, its step (ms a token, GPU busy,
/// host work), dispatches, passes and submits a token, its bandwidth and dispatch bounds with
/// the fraction reached, and its GPU time by kind ("split", each with its share).
nlohmann::json BuildDecodeModels(const std::vector<LabeledRun>& runs);

/// The side-by-side table, or null: rows (same id and params) found in at least two runs, with
/// each run's metric and time and its time over the first run's that has the row, and a
/// "warning" (DifferentAdaptersWarning) when the runs' adapters differ.
nlohmann::json BuildSideBySideModel(const std::vector<LabeledRun>& runs);

/// "" when every run is from the first one's adapter; else a sentence naming each run's adapter
/// and saying that time ratios between them compare devices.
std::string DifferentAdaptersWarning(const std::vector<LabeledRun>& runs);

}  // namespace refract::report
