// The report files a command can write besides its terminal output (--html, --csv,
// --markdown), shared by every suite command and by `refract report`.
#pragma once

#include <CLI/CLI.hpp>
#include <iosfwd>
#include <string>
#include <vector>

#include "report/report_model.h"

namespace refract::cli {

/// Where to write each report; "" = not wanted, "-" = standard output.
struct ReportOutputs {
  std::string html_path;
  std::string csv_path;
  std::string markdown_path;

  /// True when any of them goes to standard output.
  bool AnyToStdout() const;
};

/// Adds --csv FILE and --markdown FILE to `command`, and --html FILE unless `html` is false
/// (`refract report` names its HTML output -o).
void AddReportOutputOptions(CLI::App& command, ReportOutputs& outputs, bool html = true);

/// Throws UsageError when more than one of `paths` is "-", when two of them lead to the same file
/// (through links too), when one of them is one of `inputs` (writing it would destroy what the
/// command reads), or when a path's folder does not exist or is not writable; empty paths are
/// skipped. Called before any work is done.
void CheckOutputPaths(const std::vector<std::string>& paths,
                      const std::vector<std::string>& inputs = {});

/// Writes each wanted report of `runs` (results::WriteOutput: atomically, or to `out` for "-")
/// and says so on `messages` ("report written to FILE") for each file.
void WriteReports(const ReportOutputs& outputs, const std::vector<report::LabeledRun>& runs,
                  std::ostream& out, std::ostream& messages);

/// "refract 0.1.0 (Dawn bun-webgpu-linux-x64@0.1.7)": the generator named in reports.
std::string Generator();

/// The label of a run in a report: the file name of `path`, or `fallback` when empty or "-".
std::string RunLabel(const std::string& path, const std::string& fallback);

}  // namespace refract::cli
