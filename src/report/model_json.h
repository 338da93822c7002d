// Small helpers shared by the builders of the report's data (report_model.h).
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "results/run_record.h"

namespace refract::report {

/// `value`, or null when it is not finite (JSON has no NaN).
inline nlohmann::json JsonNumber(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

/// The params as a JSON object: numbers stay numbers, words stay words.
nlohmann::json ParamsJson(const results::Params& params);

/// The time a row's metric stands on [ms per dispatch]: its best time, or its median for
/// fixed-count rows; NaN when not measured.
double HeadlineTimeMs(const results::ResultRow& row);

/// The text of a param, or "" when the row does not have it.
std::string ParamText(const results::ResultRow& row, const std::string& name);

}  // namespace refract::report
