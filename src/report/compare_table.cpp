#include "report/compare_table.h"

#include <fmt/format.h>

#include <cmath>

#include "base/lookup.h"
#include "report/model_json.h"
#include "report/text_table.h"
#include "report/units.h"

namespace refract::report {
namespace {

using results::Verdict;

Color VerdictColor(Verdict verdict) {
  static constexpr Entry<Verdict, Color> kColors[] = {{Verdict::kFaster, Color::kGreen},
                                                      {Verdict::kSlower, Color::kRed},
                                                      {Verdict::kNoisy, Color::kYellow},
                                                      {Verdict::kSame, Color::kNone}};
  return Lookup(kColors, verdict, Color::kNone);
}

std::string RatioText(double ratio) {
  return std::isfinite(ratio) ? fmt::format("×{:.3f}", ratio) : std::string(kMissing);
}

std::string NoiseText(double noise) { return fmt::format("±{:.1f}%", 100 * noise); }

std::string PText(double p) {
  return std::isfinite(p) ? fmt::format("{:.2g}", p) : std::string(kMissing);
}

std::vector<const results::UnmatchedRow*> Unmatched(const results::Comparison& comparison) {
  std::vector<const results::UnmatchedRow*> rows;
  for (const auto* list :
       {&comparison.only_in_base, &comparison.only_in_new, &comparison.not_measured}) {
    for (const results::UnmatchedRow& row : *list) rows.push_back(&row);
  }
  return rows;
}

void WriteLines(std::ostream& out, const TextTable& table) {
  for (const std::string& line : table.Lines()) out << line << '\n';
}

}  // namespace

std::string ComparisonRule(const results::Comparison& comparison) {
  return fmt::format(
      "A change is called when the time moved by more than {:g}% and by more than the noise "
      "(the smaller relative spread (p90 − p10) / (2 · median) of the two runs), confirmed by a "
      "Mann–Whitney U test (p < {:g}) where both runs kept {} samples or more; time × is the "
      "new time over the base time.",
      100 * comparison.options.threshold, comparison.options.alpha, comparison.options.min_samples);
}

void RenderComparison(std::ostream& out, const results::Comparison& comparison,
                      TerminalStyle style) {
  TextTable table({false, false, true, true, true, true, true, false, false});
  std::vector<std::string> header = {"id",    "params", "base",    "new", "time ×",
                                     "noise", "p",      "verdict", "why"};
  for (std::string& cell : header) cell = Paint(cell, Color::kBold, style);
  table.AddRow(header);
  for (const results::RowComparison& row : comparison.rows) {
    table.AddOverflowRow(
        {row.id, results::ParamsText(row.params), FormatDuration(row.base_ms),
         FormatDuration(row.new_ms), RatioText(row.ratio), NoiseText(row.noise), PText(row.p_value),
         Paint(results::ToString(row.verdict), VerdictColor(row.verdict), style), row.reason});
  }
  WriteLines(out, table);
  const auto unmatched = Unmatched(comparison);
  if (!unmatched.empty()) {
    out << "\nNot compared\n";
    TextTable others;
    for (const results::UnmatchedRow* row : unmatched) {
      others.AddOverflowRow({"  " + row->id, results::ParamsText(row->params), row->note});
    }
    WriteLines(out, others);
  }
  out << '\n' << comparison.SummaryLine() << '\n';
}

void RenderCrossDevice(std::ostream& out, const std::vector<results::CrossDeviceRow>& rows,
                       const std::string& base_name, const std::string& new_name) {
  out << "base: " << base_name << "\nnew:  " << new_name << "\n\n";
  TextTable table({false, true, true, true, true, true, false});
  table.AddRow(
      {"id", "base metric", "new metric", "base time", "new time", "time ×", "params that differ"});
  for (const results::CrossDeviceRow& row : rows) {
    table.AddOverflowRow({row.id, FormatSi(row.base_metric, row.unit),
                          FormatSi(row.new_metric, row.unit), FormatDuration(row.base_ms),
                          FormatDuration(row.new_ms), RatioText(row.ratio), row.params_note});
  }
  WriteLines(out, table);
  out << '\n'
      << rows.size() << " rows on both devices; time × is the new time over the base time\n";
}

nlohmann::json ComparisonJson(const results::Comparison& comparison) {
  nlohmann::json rows = nlohmann::json::array();
  for (const results::RowComparison& row : comparison.rows) {
    rows.push_back({{"id", row.id},
                    {"category", row.category},
                    {"params_text", results::ParamsText(row.params)},
                    {"statistic", row.statistic},
                    {"base_ms", JsonNumber(row.base_ms)},
                    {"base_text", FormatDuration(row.base_ms)},
                    {"new_ms", JsonNumber(row.new_ms)},
                    {"new_text", FormatDuration(row.new_ms)},
                    {"ratio", JsonNumber(row.ratio)},
                    {"ratio_text", RatioText(row.ratio)},
                    {"noise", row.noise},
                    {"noise_text", NoiseText(row.noise)},
                    {"p_value", JsonNumber(row.p_value)},
                    {"p_text", PText(row.p_value)},
                    {"verdict", std::string(results::ToString(row.verdict))},
                    {"reason", row.reason}});
  }
  nlohmann::json unmatched = nlohmann::json::array();
  for (const results::UnmatchedRow* row : Unmatched(comparison)) {
    unmatched.push_back(
        {{"id", row->id}, {"params_text", results::ParamsText(row->params)}, {"note", row->note}});
  }
  return {{"summary", comparison.SummaryLine()},
          {"rule", ComparisonRule(comparison)},
          {"rows", rows},
          {"unmatched", unmatched}};
}

}  // namespace refract::report
