// The side-by-side table of the report's data (report_model.h, BuildSideBySideModel).
#include <fmt/format.h>

#include <cmath>

#include "report/model_json.h"
#include "report/report_model.h"
#include "report/row_format.h"
#include "results/run_comparison.h"

namespace refract::report {

std::string DifferentAdaptersWarning(const std::vector<LabeledRun>& runs) {
  std::string names;
  bool differ = false;
  for (const LabeledRun& run : runs) {
    differ = differ || !results::SameAdapter(run.record.device, runs.front().record.device);
    names +=
        (names.empty() ? "" : "; ") + run.label + ": " + results::AdapterName(run.record.device);
  }
  if (!differ) return "";
  return "these runs are from different adapters (" + names +
         "): a time ratio compares the devices, not a change (refract compare gives no verdict "
         "across adapters)";
}

nlohmann::json BuildSideBySideModel(const std::vector<LabeledRun>& runs) {
  if (runs.size() < 2) return nullptr;
  // Keys (id and params) in order of first appearance, each with its row in every run.
  struct Entry {
    const results::ResultRow* first = nullptr;
    std::vector<const results::ResultRow*> cells;
  };
  std::vector<Entry> entries;
  for (size_t f = 0; f < runs.size(); ++f) {
    for (const results::ResultRow& row : runs[f].record.rows) {
      auto it = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) {
        return e.first->id == row.id && e.first->params == row.params && e.cells[f] == nullptr;
      });
      if (it == entries.end()) {
        entries.push_back({&row, std::vector<const results::ResultRow*>(runs.size(), nullptr)});
        it = entries.end() - 1;
      }
      it->cells[f] = &row;
    }
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const Entry& entry : entries) {
    if (std::count(entry.cells.begin(), entry.cells.end(), nullptr) + 1 >=
        static_cast<long>(runs.size())) {
      continue;  // in one run only
    }
    nlohmann::json cells = nlohmann::json::array();
    double reference_ms = results::kNoValue;
    for (const results::ResultRow* row : entry.cells) {
      if (row == nullptr) {
        cells.push_back(nullptr);
        continue;
      }
      const bool ok = row->status == results::RowStatus::kOk;
      const double ms = ok ? HeadlineTimeMs(*row) : results::kNoValue;
      const double ratio = ms / reference_ms;
      if (!std::isfinite(reference_ms) && ms > 0) reference_ms = ms;
      cells.push_back({{"status", std::string(results::ToString(row->status))},
                       {"metric_text", ok ? MetricText(*row) : row->message},
                       {"time_ms", JsonNumber(ms)},
                       {"time_text", ok ? TimeText(*row) : ""},
                       {"ratio", JsonNumber(ratio)},
                       {"ratio_text", std::isfinite(ratio) ? fmt::format("×{:.3f}", ratio) : ""}});
    }
    rows.push_back({{"id", entry.first->id},
                    {"params_text", results::ParamsText(entry.first->params)},
                    {"cells", cells}});
  }
  if (rows.empty()) return nullptr;
  nlohmann::json labels = nlohmann::json::array();
  for (const LabeledRun& run : runs) labels.push_back(run.label);
  nlohmann::json model = {{"labels", labels}, {"rows", rows}};
  const std::string warning = DifferentAdaptersWarning(runs);
  if (!warning.empty()) model["warning"] = warning;
  return model;
}

}  // namespace refract::report
