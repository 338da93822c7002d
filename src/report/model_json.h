// Small helpers shared by the builders of the report's data (report_model.h).
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "results/json_io.h"
#include "results/run_record.h"

namespace refract::report {

using results::JsonNumber;

/// The time a row's metric stands on [ms per dispatch]: its best time, or its median for
/// fixed-count rows; NaN when not measured.
double HeadlineTimeMs(const results::ResultRow& row);

/// The text of a param, or "" when the row does not have it.
std::string ParamText(const results::ResultRow& row, const std::string& name);

}  // namespace refract::report
