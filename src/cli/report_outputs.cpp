#include "cli/report_outputs.h"

#include <unistd.h>

#include <filesystem>
#include <ostream>

#include "base/error.h"
#include "cli/number_checks.h"
#include "report/html_page.h"
#include "report/result_table.h"
#include "results/output_file.h"

namespace refract::cli {

bool ReportOutputs::AnyToStdout() const {
  return html_path == "-" || csv_path == "-" || markdown_path == "-";
}

void AddReportOutputOptions(CLI::App& command, ReportOutputs& outputs, bool html) {
  if (html) {
    CheckFileName(command.add_option("--html", outputs.html_path,
                                     "Write a self-contained HTML report to FILE (opens "
                                     "offline), or - for standard output"));
  }
  CheckFileName(command.add_option("--csv", outputs.csv_path,
                                   "Write the results as CSV to FILE (one row per result), or - "
                                   "for standard output"));
  CheckFileName(command.add_option(
      "--markdown", outputs.markdown_path,
      "Write the results as a markdown table to FILE, or - for standard output"));
}

void CheckOutputPaths(const std::vector<std::string>& paths,
                      const std::vector<std::string>& inputs) {
  int to_stdout = 0;
  for (size_t i = 0; i < paths.size(); ++i) {
    const std::string& path = paths[i];
    if (path.empty()) continue;
    if (path == "-") {
      if (++to_stdout > 1) throw UsageError("only one output can go to standard output (-)");
      continue;
    }
    for (size_t j = 0; j < i; ++j) {
      if (results::SameFile(paths[j], path)) {
        throw UsageError("two outputs lead to the same file: '" + paths[j] + "' and '" + path +
                         "' (the second would replace the first)");
      }
    }
    for (const std::string& input : inputs) {
      if (results::SameFile(input, path)) {
        throw UsageError("output '" + path + "' is the input '" + input +
                         "': writing it would destroy what is read");
      }
    }
    results::CheckOutputWritable(path);  // links, pipes and devices as WriteOutput treats them
  }
}

void WriteReports(const ReportOutputs& outputs, const std::vector<report::LabeledRun>& runs,
                  std::ostream& out, std::ostream& messages) {
  auto write = [&](const std::string& path, const std::string& what, auto render) {
    if (path.empty()) return;
    results::WriteOutput(path, render(), out);
    if (path != "-") messages << what << " written to " << path << "\n";
  };
  write(outputs.html_path, "HTML report",
        [&] { return report::RenderHtmlPage(report::BuildReportModel(runs), Generator()); });
  write(outputs.csv_path, "CSV", [&] { return report::RenderCsv(runs); });
  write(outputs.markdown_path, "markdown", [&] { return report::RenderMarkdown(runs); });
}

std::string Generator() {
  return std::string("refract ") + REFRACT_VERSION + " (Dawn " + REFRACT_DAWN_PACKAGE + ")";
}

std::string RunLabel(const std::string& path, const std::string& fallback) {
  if (path.empty() || path == "-") return fallback;
  return std::filesystem::path(path).filename().string();
}

}  // namespace refract::cli
