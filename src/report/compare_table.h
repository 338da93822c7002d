// How a comparison of two runs (results/run_comparison.h) is shown: in the terminal, and as
// the "comparison" section of the HTML report's data.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "report/terminal.h"
#include "results/run_comparison.h"

namespace refract::report {

/// One line per compared row (id, params, base and new time, time ratio, noise, p, verdict and
/// why), then the rows not compared, then the summary line. Verdicts colored when style.color.
void RenderComparison(std::ostream& out, const results::Comparison& comparison,
                      TerminalStyle style);

/// The cross-device ratio table: id, each device's metric and time, new time over base time,
/// and the params that differ.
void RenderCrossDevice(std::ostream& out, const std::vector<results::CrossDeviceRow>& rows,
                       const std::string& base_name, const std::string& new_name);

/// The report data's "comparison" section: {"summary", "rule", "rows", "unmatched"}.
nlohmann::json ComparisonJson(const results::Comparison& comparison);

/// The rule in one sentence, with the threshold, for the terminal and the page.
std::string ComparisonRule(const results::Comparison& comparison);

}  // namespace refract::report
