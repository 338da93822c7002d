// The decode sections of the report's data (report_model.h, BuildDecodeModels).
#include <fmt/format.h>

#include <map>

#include "report/model_json.h"
#include "report/report_model.h"
#include "report/units.h"

namespace refract::report {

nlohmann::json BuildDecodeModels(const std::vector<LabeledRun>& runs) {
  nlohmann::json sections = nlohmann::json::array();
  for (size_t f = 0; f < runs.size(); ++f) {
    const results::RunRecord& record = runs[f].record;
    if (record.command != "decode") continue;
    std::vector<std::string> kernels;                        // in order of first appearance
    std::map<std::string, std::pair<double, size_t>> split;  // kernel → (Σ ms, rows)
    double total_ms = 0;
    for (const results::ResultRow& row : record.rows) {
      const std::string kernel = ParamText(row, "kernel");
      const std::string phase = ParamText(row, "phase");
      const double ms = HeadlineTimeMs(row);
      if (kernel.empty() || !(phase.empty() || phase == "decode") ||
          row.status != results::RowStatus::kOk || !(ms > 0)) {
        continue;
      }
      if (!split.count(kernel)) kernels.push_back(kernel);
      split[kernel].first += ms;
      split[kernel].second += 1;
      total_ms += ms;
    }
    nlohmann::json parts = nlohmann::json::array();
    for (const std::string& kernel : kernels) {
      const auto [ms, count] = split[kernel];
      parts.push_back({{"kernel", kernel},
                       {"time_ms", ms},
                       {"time_text", FormatDuration(ms)},
                       {"share", ms / total_ms},
                       {"share_text", fmt::format("{:.1f}%", 100 * ms / total_ms)},
                       {"rows", count}});
    }
    auto tokens = record.summary.find("tokens_per_s");
    const double tokens_per_s = tokens == record.summary.end() ? results::kNoValue : tokens->second;
    sections.push_back(
        {{"file", f},
         {"label", runs[f].label},
         {"tokens_per_s", JsonNumber(tokens_per_s)},
         {"tokens_text", std::isfinite(tokens_per_s) ? fmt::format("{:.4g} tokens/s", tokens_per_s)
                                                     : std::string("not recorded")},
         {"total_ms", total_ms},
         {"total_text", FormatDuration(total_ms)},
         {"split", parts}});
  }
  return sections;
}

}  // namespace refract::report
