// The self-contained HTML report: one file holding the page, its style and scripts, the chart
// library (uPlot) and the data, so that it opens offline and no request leaves it (its
// Content-Security-Policy forbids any).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace refract::report {

/// The page for `model` (BuildReportModel's document, possibly with a "comparison"):
/// the embedded template with uPlot, the page's scripts and style inlined and `model` in a
/// <script type="application/json" id="refract-data"> element. `generator` names the tool, e.g.
/// "refract 0.1.0". Throws refract::Error if an embedded script could end its element early.
std::string RenderHtmlPage(const nlohmann::json& model, std::string_view generator);

/// `text` with &, <, >, " and ' written as HTML character references.
std::string EscapeHtml(std::string_view text);

/// The data document as it goes into a <script type="application/json">: `model` dumped with
/// '<', '>' and '&' written as \u escapes, so no "</script>" can end the element early.
std::string EmbeddableJson(const nlohmann::json& model);

}  // namespace refract::report
