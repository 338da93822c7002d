#include "report/html_page.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "base/error.h"
#include "base/lookup.h"
#include "report/report_files.h"
#include "report/report_model.h"

namespace refract::report {
namespace {

/// The page's scripts, in the order they build on each other.
constexpr std::string_view kPageScripts[] = {"report_util.js", "report_table.js",
                                             "report_charts.js", "report_page.js"};

bool ContainsScriptEnd(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower.find("</script") != std::string::npos;
}

std::string Checked(std::string_view name, std::string_view script) {
  if (ContainsScriptEnd(script)) {
    throw Error("embedded report file '" + std::string(name) + "' contains \"</script\"");
  }
  return std::string(script);
}

/// The template with each @@NAME@@ replaced by values[NAME]; text put in is not scanned again.
std::string Fill(std::string_view page, const std::map<std::string, std::string>& values) {
  std::string out;
  size_t at = 0;
  while (true) {
    const size_t open = page.find("@@", at);
    if (open == std::string_view::npos) break;
    const size_t close = page.find("@@", open + 2);
    if (close == std::string_view::npos) break;
    const std::string name(page.substr(open + 2, close - open - 2));
    auto value = values.find(name);
    if (value == values.end()) throw Error("report template: unknown placeholder " + name);
    out.append(page.substr(at, open - at));
    out += value->second;
    at = close + 2;
  }
  out.append(page.substr(at));
  return out;
}

/// `text` with every character that `replacements` has an entry for replaced by its text.
template <size_t N>
std::string Replaced(std::string_view text,
                     const Entry<char, std::string_view> (&replacements)[N]) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const std::string_view replacement = Lookup(replacements, c, {});
    if (replacement.empty()) {
      out += c;
    } else {
      out += replacement;
    }
  }
  return out;
}

}  // namespace

std::string EscapeHtml(std::string_view text) {
  static constexpr Entry<char, std::string_view> kReferences[] = {
      {'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\'', "&#39;"}};
  return Replaced(text, kReferences);
}

std::string EmbeddableJson(const nlohmann::json& model) {
  static constexpr Entry<char, std::string_view> kEscapes[] = {
      {'<', "\\u003c"}, {'>', "\\u003e"}, {'&', "\\u0026"}};
  return Replaced(model.dump(), kEscapes);
}

std::string RenderHtmlPage(const nlohmann::json& model, std::string_view generator) {
  std::string scripts;
  for (std::string_view name : kPageScripts) {
    scripts += Checked(name, EmbeddedFileContent(name)) + "\n";
  }
  std::string license(EmbeddedFileContent("LICENSE"));
  if (license.find("*/") != std::string::npos) throw Error("uPlot's LICENSE contains \"*/\"");
  const auto package = nlohmann::json::parse(EmbeddedFileContent("package.json"));
  const std::string title = model.value("title", std::string("refract report"));
  return Fill(
      EmbeddedFileContent("report.html"),
      {{"GENERATOR", EscapeHtml(generator)},
       {"TITLE", EscapeHtml(title)},
       {"UPLOT_CSS", std::string(EmbeddedFileContent("uPlot.min.css"))},
       {"REPORT_CSS", std::string(EmbeddedFileContent("report.css"))},
       {"DATA", EmbeddableJson(model)},
       {"UPLOT_LICENSE", "uPlot " + package.value("version", std::string()) + "\n" + license},
       {"UPLOT_JS", Checked("uPlot.iife.min.js", EmbeddedFileContent("uPlot.iife.min.js"))},
       {"UPLOT_VERSION", EscapeHtml(package.value("version", std::string()))},
       {"REPORT_JS", scripts}});
}

std::string_view EmbeddedFileContent(std::string_view name) {
  for (const EmbeddedFile& file : EmbeddedFiles()) {
    if (file.name == name) return file.content;
  }
  throw Error("no embedded report file '" + std::string(name) + "'");
}

}  // namespace refract::report
