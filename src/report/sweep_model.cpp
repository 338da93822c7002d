// The sweep charts of the report's data (report_model.h, BuildSweepModels).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "report/model_json.h"
#include "report/report_model.h"
#include "report/units.h"

namespace refract::report {
namespace {

using nlohmann::json;
using results::ResultRow;

bool HasFlag(const ResultRow& row, const std::string& flag) {
  return std::find(row.flags.begin(), row.flags.end(), flag) != row.flags.end();
}

std::string FlagReason(const ResultRow& row, const std::string& flag) {
  for (size_t i = 0; i < row.flags.size() && i < row.flag_reasons.size(); ++i) {
    if (row.flags[i] != flag) continue;
    std::string reason = row.flag_reasons[i];
    const std::string prefix = flag + ": ";
    if (reason.rfind(prefix, 0) == 0) reason.erase(0, prefix.size());
    return reason;
  }
  return "";
}

bool IsSweepRun(const results::RunRecord& record) {
  if (record.command.rfind("sweep", 0) == 0) return true;
  return std::any_of(record.rows.begin(), record.rows.end(),
                     [](const ResultRow& row) { return HasFlag(row, "cliff"); });
}

bool NumericParam(const ResultRow& row, const std::string& name, double* value = nullptr) {
  auto it = row.params.find(name);
  if (it == row.params.end() || it->second.IsText()) return false;
  if (value != nullptr) {
    *value =
        it->second.IsInteger() ? static_cast<double>(it->second.AsInteger()) : it->second.AsReal();
  }
  return true;
}

/// The chart's x param among `rows` (one category), or "" when none varies.
std::string MainAxis(const results::RunRecord& record, const std::vector<const ResultRow*>& rows) {
  std::set<std::string> names;
  for (const ResultRow* row : rows) {
    for (const auto& [name, value] : row->params) names.insert(name);
  }
  auto distinct_values = [&](const std::string& name) {
    std::set<double> values;
    for (const ResultRow* row : rows) {
      double x = 0;
      if (NumericParam(*row, name, &x)) values.insert(x);
    }
    return values.size();
  };
  // The rows' own "main_axis" (refract sweep names it on every row), else the run's option.
  std::string named;
  if (auto it = rows.front()->params.find("main_axis");
      it != rows.front()->params.end() && it->second.IsText()) {
    named = it->second.AsText();
  } else if (auto option = record.options.find("main_axis"); option != record.options.end()) {
    named = option->second;
  }
  if (!named.empty() && names.count(named) && distinct_values(named) >= 2) return named;
  for (const std::string& name : names) {
    const bool numeric = std::all_of(rows.begin(), rows.end(), [&](const ResultRow* row) {
      return !row->params.count(name) || NumericParam(*row, name);
    });
    if (numeric && distinct_values(name) >= 2) return name;
  }
  return "";
}

/// y of a row, its p10–p90 band, and how good it is (higher is better).
struct Value {
  double y = 0, lo = 0, hi = 0, goodness = 0;
};

Value ValueOf(const ResultRow& row, bool by_metric) {
  const double t = HeadlineTimeMs(row);
  const double p10 = std::isfinite(row.stats.p10) ? row.stats.p10 : t;
  const double p90 = std::isfinite(row.stats.p90) ? row.stats.p90 : t;
  if (by_metric) {
    const double work_per_s = row.work_per_dispatch * 1000;
    return {row.metric_value, work_per_s / p90, work_per_s / p10, row.metric_value};
  }
  return {t, p10, p90, 1 / t};
}

bool PowerOfTwo(double x) {
  return x >= 1 && x == std::floor(x) &&
         (static_cast<uint64_t>(x) & (static_cast<uint64_t>(x) - 1)) == 0;
}

json SweepJson(size_t file, const LabeledRun& run, const std::string& category,
               const std::vector<const ResultRow*>& rows,
               const std::map<const ResultRow*, size_t>& index) {
  const std::string axis = MainAxis(run.record, rows);
  if (axis.empty()) return nullptr;
  std::vector<const ResultRow*> plotted;
  size_t failed = 0;
  for (const ResultRow* row : rows) {
    if (row->status == results::RowStatus::kError) ++failed;
    if (row->status == results::RowStatus::kOk && NumericParam(*row, axis) &&
        HeadlineTimeMs(*row) > 0) {
      plotted.push_back(row);
    }
  }
  const bool by_metric =
      !plotted.empty() && std::all_of(plotted.begin(), plotted.end(), [&](const ResultRow* r) {
        return r->metric_value > 0 && r->work_per_dispatch > 0 && r->unit == plotted[0]->unit;
      });
  std::map<double, const ResultRow*> best;  // x → the best row there
  for (const ResultRow* row : plotted) {
    double x = 0;
    NumericParam(*row, axis, &x);
    auto [it, inserted] = best.emplace(x, row);
    if (!inserted && ValueOf(*row, by_metric).goodness > ValueOf(*it->second, by_metric).goodness) {
      it->second = row;
    }
  }
  if (best.size() < 2) return nullptr;

  json points = json::array();
  const ResultRow* winner = nullptr;
  bool powers_of_two = true;
  for (const auto& [x, row] : best) {
    const Value v = ValueOf(*row, by_metric);
    powers_of_two = powers_of_two && PowerOfTwo(x);
    if (winner == nullptr || v.goodness > ValueOf(*winner, by_metric).goodness) winner = row;
    points.push_back({{"x", x},
                      {"y", v.y},
                      {"lo", JsonNumber(v.lo)},
                      {"hi", JsonNumber(v.hi)},
                      {"row", index.at(row)},
                      {"id", row->id},
                      {"params_text", results::ParamsText(row->params)}});
  }
  json cliffs = json::array();
  for (const ResultRow* row : plotted) {
    if (!HasFlag(*row, "cliff")) continue;
    double x = 0;
    NumericParam(*row, axis, &x);
    const Value v = ValueOf(*row, by_metric);
    double before = 0;  // the best goodness at any smaller x
    for (const auto& [bx, brow] : best) {
      if (bx < x) before = std::max(before, ValueOf(*brow, by_metric).goodness);
    }
    const double depth = before > 0 ? 1 - v.goodness / before : results::kNoValue;
    cliffs.push_back(
        {{"x", x},
         {"y", v.y},
         {"row", index.at(row)},
         {"id", row->id},
         {"depth", JsonNumber(depth)},
         {"depth_text", std::isfinite(depth) ? fmt::format("falls to {:.0f}% of the best at a "
                                                           "smaller {}",
                                                           100 * (1 - depth), axis)
                                             : std::string(kMissing)},
         {"cause", FlagReason(*row, "cliff")}});
  }
  const double x_min = best.begin()->first, x_max = best.rbegin()->first;
  int log_base = 0;
  if (x_min > 0 && x_max / x_min >= 8) log_base = powers_of_two ? 2 : 10;
  double winner_x = 0;
  NumericParam(*winner, axis, &winner_x);
  const Value w = ValueOf(*winner, by_metric);
  const std::string unit = by_metric ? plotted[0]->unit : "ms";
  return {{"file", file},
          {"label", run.label},
          {"category", category},
          {"axis", axis},
          {"log_base", log_base},
          {"y_kind", by_metric ? "metric" : "time"},
          {"unit", unit},
          {"y_label", by_metric ? "best " + unit + " (p10–p90)" : "best time [ms] (p10–p90)"},
          {"configurations", plotted.size()},
          {"failed", failed},
          {"points", points},
          {"winner",
           {{"x", winner_x},
            {"y", w.y},
            {"row", index.at(winner)},
            {"id", winner->id},
            {"text", by_metric ? FormatSi(w.y, unit) : FormatDuration(w.y)},
            {"params_text", results::ParamsText(winner->params)}}},
          {"cliffs", cliffs}};
}

}  // namespace

json BuildSweepModels(const std::vector<LabeledRun>& runs) {
  json sweeps = json::array();
  size_t offset = 0;
  for (size_t f = 0; f < runs.size(); ++f) {
    const results::RunRecord& record = runs[f].record;
    std::map<const ResultRow*, size_t> index;
    std::vector<std::string> categories;
    std::map<std::string, std::vector<const ResultRow*>> by_category;
    for (size_t i = 0; i < record.rows.size(); ++i) {
      const ResultRow& row = record.rows[i];
      index[&row] = offset + i;
      if (!by_category.count(row.category)) categories.push_back(row.category);
      by_category[row.category].push_back(&row);
    }
    offset += record.rows.size();
    if (!IsSweepRun(record)) continue;
    for (const std::string& category : categories) {
      json sweep = SweepJson(f, runs[f], category, by_category[category], index);
      if (!sweep.is_null()) sweeps.push_back(std::move(sweep));
    }
  }
  return sweeps;
}

}  // namespace refract::report
