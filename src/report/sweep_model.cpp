// The sweep charts of the report's data (report_model.h, BuildSweepModels).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "report/model_json.h"
#include "results/row_identity.h"
#include "report/report_model.h"
#include "report/sweep_lines.h"
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

/// A size in bytes as the sweeps name them: "16 MiB", "1.5 KiB".
std::string BinaryBytes(double bytes) {
  constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  size_t unit = 0;
  while (bytes >= 1024 && unit + 1 < std::size(kUnits)) {
    bytes /= 1024;
    ++unit;
  }
  return fmt::format("{:g} {}", bytes, kUnits[unit]);
}

/// A configuration as its axes ("items=8 · subgroups=0 · wg=64"): the row's own axes (params
/// "axes", as refract sweep writes them), else `axis` alone; never the stamps and lists the
/// params also hold.
std::string AxesText(const ResultRow& row, const std::string& axis) {
  std::vector<std::string> names;
  const std::string listed = results::TextOf(row.params, "axes");
  for (size_t start = 0; start < listed.size();) {
    const size_t end = std::min(listed.find(',', start), listed.size());
    if (end > start) names.push_back(listed.substr(start, end - start));
    start = end + 1;
  }
  if (names.empty()) names.push_back(axis);
  std::string text;
  for (const std::string& name : names) {
    double value = 0;
    if (!NumericParam(row, name, &value)) continue;
    const std::string shown =
        name.find("bytes") != std::string::npos ? BinaryBytes(value) : fmt::format("{:g}", value);
    text += (text.empty() ? "" : " · ") + name + "=" + shown;
  }
  return text.empty() ? results::IdentityOf(row.params).role : text;
}

json SweepJson(size_t file, const LabeledRun& run, const std::string& category,
               const std::vector<const ResultRow*>& rows,
               const std::map<const ResultRow*, size_t>& index) {
  const std::string axis = MainAxis(run.record, rows);
  std::vector<const ResultRow*> plotted;
  size_t failed = 0, skipped = 0;
  for (const ResultRow* row : rows) {
    if (row->status == results::RowStatus::kError) ++failed;
    if (row->status == results::RowStatus::kSkipped) ++skipped;
    if (row->status == results::RowStatus::kOk && !axis.empty() && NumericParam(*row, axis) &&
        HeadlineTimeMs(*row) > 0) {
      plotted.push_back(row);
    }
  }
  json sweep = {{"file", file},          {"label", run.label},   {"category", category},
                {"axis", axis},          {"configurations", rows.size()},
                {"failed", failed},      {"skipped", skipped},   {"points", json::array()},
                {"cliffs", json::array()}, {"winner", nullptr}, {"no_winner", nullptr}};
  if (plotted.empty()) {
    // Every configuration failed or was skipped: the card says so rather than vanish.
    if (failed + skipped == rows.size()) sweep["no_winner"] = NoWinnerReason(failed, skipped);
    return failed + skipped == rows.size() ? sweep : json(nullptr);
  }
  const bool by_metric = std::all_of(plotted.begin(), plotted.end(), [&](const ResultRow* r) {
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

  // The review's winner (refract sweep flags it); a run without one: the fastest plotted row.
  const ResultRow* winner = nullptr;
  const ResultRow* fallback = nullptr;  // the built-in default, when it ran
  for (const ResultRow* row : rows) {
    if (HasFlag(*row, "winner")) winner = row;
    if (results::IdentityOf(row->params).role == "default" &&
        row->status == results::RowStatus::kOk) {
      fallback = row;
    }
  }
  if (winner == nullptr) {
    for (const ResultRow* row : plotted) {
      if (winner == nullptr ||
          ValueOf(*row, by_metric).goodness > ValueOf(*winner, by_metric).goodness) {
        winner = row;
      }
    }
  }
  json points = json::array();
  bool powers_of_two = true;
  for (const auto& [x, row] : best) {
    const Value v = ValueOf(*row, by_metric);
    powers_of_two = powers_of_two && PowerOfTwo(x);
    points.push_back({{"x", x},
                      {"y", v.y},
                      {"lo", JsonNumber(v.lo)},
                      {"hi", JsonNumber(v.hi)},
                      {"row", index.at(row)},
                      {"id", row->id},
                      {"axes_text", AxesText(*row, axis)}});
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
  const double over_default =
      fallback != nullptr ? HeadlineTimeMs(*fallback) / HeadlineTimeMs(*winner) : results::kNoValue;
  const std::string unrepeatable = FlagReason(*winner, "unrepeatable");
  sweep["log_base"] = log_base;
  sweep["y_kind"] = by_metric ? "metric" : "time";
  sweep["unit"] = unit;
  sweep["y_label"] = by_metric ? "best " + unit + " (p10–p90)" : "best time [ms] (p10–p90)";
  sweep["measured"] = plotted.size();
  // A curve needs two values of the axis; one (a --filter, a single size) is a card alone.
  sweep["points"] = best.size() >= 2 ? points : json::array();
  sweep["cliffs"] = best.size() >= 2 ? cliffs : json::array();
  sweep["winner"] = {
      {"x", winner_x},
      {"y", w.y},
      {"row", index.at(winner)},
      {"id", winner->id},
      {"text", by_metric ? FormatSi(w.y, unit) : FormatDuration(w.y)},
      {"axes_text", AxesText(*winner, axis)},
      // The review's winner, or (a sweep without winners: bandwidth) only the fastest row.
      {"flagged", HasFlag(*winner, "winner")},
      {"reason", FlagReason(*winner, "winner")},
      {"over_default", JsonNumber(over_default)},
      {"over_default_text",
       std::isfinite(over_default)
           ? fmt::format("{:.2f}x the {} default", over_default,
                         results::IdentityOf(fallback->params).sweep.rfind("tune:", 0) == 0
                             ? "spec's"
                             : "built-in")
           : std::string()},
      {"unrepeatable", unrepeatable.empty() ? json(nullptr) : json(unrepeatable)}};
  return sweep;
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
