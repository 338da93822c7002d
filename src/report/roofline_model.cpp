// The roofline section of the report's data (report_model.h, BuildRooflineModel).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/model_json.h"
#include "report/report_model.h"
#include "report/units.h"
#include "results/run_comparison.h"

namespace refract::report {
namespace {

using nlohmann::json;
using results::ResultRow;

constexpr const char* kBandwidthKey = "read_bandwidth_Bps";
constexpr const char* kFmaKey = "f32_fma_flops";

bool Placeable(const ResultRow& row) {
  return row.roofline && row.status == results::RowStatus::kOk && HeadlineTimeMs(row) > 0 &&
         row.roofline->bytes > 0 && row.roofline->flops >= 0;
}

/// A ceiling of one run: the value and where it came from.
struct Ceiling {
  double value = results::kNoValue;
  std::string source;
};

/// The run's own figure for `key`: its summary, else the largest ceiling its rows bound by
/// `bound` recorded.
Ceiling OwnCeiling(const results::RunRecord& record, const char* key, const char* bound) {
  if (auto it = record.summary.find(key); it != record.summary.end() && it->second > 0) {
    return {it->second, std::string("summary ") + key};
  }
  Ceiling ceiling;
  for (const ResultRow& row : record.rows) {
    if (!row.roofline || row.roofline->bound != bound || !(row.roofline->ceiling > 0)) continue;
    if (!(ceiling.value >= row.roofline->ceiling)) ceiling.value = row.roofline->ceiling;
    ceiling.source = "the rows' rooflines";
  }
  return ceiling;
}

/// OwnCeiling, else the first other run on the same adapter that has one.
Ceiling FindCeiling(const std::vector<LabeledRun>& runs, size_t index, const char* key,
                    const char* bound) {
  Ceiling ceiling = OwnCeiling(runs[index].record, key, bound);
  for (size_t i = 0; i < runs.size() && !(ceiling.value > 0); ++i) {
    if (i == index || !results::SameAdapter(runs[i].record.device, runs[index].record.device)) {
      continue;
    }
    ceiling = OwnCeiling(runs[i].record, key, bound);
    if (ceiling.value > 0) ceiling.source = "run " + runs[i].label;
  }
  return ceiling;
}

double PowerOfTwoBelow(double x) { return std::exp2(std::floor(std::log2(x))); }
double PowerOfTwoAbove(double x) { return std::exp2(std::ceil(std::log2(x))); }

}  // namespace

json BuildRooflineModel(const std::vector<LabeledRun>& runs) {
  json ceilings = json::array();
  std::vector<double> xs;  // positive intensities and ridge points: they set the x range
  bool any_point = false;
  for (size_t f = 0; f < runs.size(); ++f) {
    const auto& rows = runs[f].record.rows;
    if (std::none_of(rows.begin(), rows.end(), Placeable)) continue;
    any_point = true;
    const Ceiling bandwidth = FindCeiling(runs, f, kBandwidthKey, "read-bandwidth");
    const Ceiling fma = FindCeiling(runs, f, kFmaKey, "fma");
    const double ridge = fma.value / bandwidth.value;
    if (std::isfinite(ridge) && ridge > 0) xs.push_back(ridge);
    ceilings.push_back({{"file", f},
                        {"label", runs[f].label},
                        {"bandwidth_Bps", JsonNumber(bandwidth.value)},
                        {"bandwidth_text", FormatSi(bandwidth.value, "B/s")},
                        {"bandwidth_source", bandwidth.source},
                        {"fma_flops", JsonNumber(fma.value)},
                        {"fma_text", FormatSi(fma.value, "FLOP/s")},
                        {"fma_source", fma.source},
                        {"ridge", JsonNumber(ridge)}});
    for (const ResultRow& row : rows) {
      if (Placeable(row) && row.roofline->flops > 0) {
        xs.push_back(row.roofline->flops / row.roofline->bytes);
      }
    }
  }
  if (!any_point) return nullptr;
  double x_floor = 1.0 / 64, x_max = 64;
  if (!xs.empty()) {
    x_floor = PowerOfTwoBelow(*std::min_element(xs.begin(), xs.end())) / 4;
    x_max = PowerOfTwoAbove(*std::max_element(xs.begin(), xs.end())) * 4;
  }

  json points = json::array();
  size_t row_index = 0;
  for (size_t f = 0; f < runs.size(); ++f) {
    for (const ResultRow& row : runs[f].record.rows) {
      const size_t index = row_index++;
      if (!Placeable(row)) continue;
      const results::Roofline& roof = *row.roofline;
      const double seconds = HeadlineTimeMs(row) / 1000;
      const bool zero_flop = roof.flops == 0;
      double x = roof.flops / roof.bytes, y = roof.flops / seconds;
      std::string text = FormatSi(y, "FLOP/s") + fmt::format(" at {:.3g} FLOP/B", x);
      if (zero_flop) {
        // No arithmetic: placed at the left edge, as far below the bandwidth roof there as the
        // row is below its floor (fraction of the read-bandwidth bound).
        x = x_floor;
        y = roof.fraction * roof.ceiling * x_floor;
        text = FormatSi(roof.bytes / seconds, "B/s") + ", no arithmetic (0 FLOP)";
      }
      if (!(y > 0) || !std::isfinite(y)) continue;
      const std::string variant = ParamText(row, "variant");
      points.push_back({{"row", index},
                        {"file", f},
                        {"id", row.id},
                        {"variant", variant.empty() ? "(none)" : variant},
                        {"x", x},
                        {"y", y},
                        {"zero_flop", zero_flop},
                        {"bound", roof.bound},
                        {"fraction", JsonNumber(roof.fraction)},
                        {"text", text}});
    }
  }
  return {{"x_floor", x_floor},
          {"x_max", x_max},
          {"x_label", "arithmetic intensity [FLOP/byte]"},
          {"y_label", "achieved [FLOP/s]"},
          {"ceilings", ceilings},
          {"points", points}};
}

}  // namespace refract::report
