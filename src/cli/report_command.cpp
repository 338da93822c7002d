// refract report: one self-contained HTML report (and/or CSV, markdown) of result files.
#include <ostream>

#include "base/error.h"
#include "cli/commands.h"
#include "cli/number_checks.h"
#include "cli/report_outputs.h"
#include "results/run_file.h"

namespace refract::cli {

Registered RegisterReport(CLI::App& app) {
  struct Options {
    std::vector<std::string> files;
    ReportOutputs outputs;
  };
  auto options = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "report",
      "Write one self-contained HTML report (or CSV, markdown) of result files, side by side");
  CheckFileName(
      command->add_option("files", options->files, "Result files (--json output of a suite command)")
          ->required());
  CheckFileName(command->add_option("-o,--output", options->outputs.html_path,
                                    "Write the HTML report to FILE, or - for standard output"));
  AddReportOutputOptions(*command, options->outputs, /*html=*/false);
  Action action = [options](std::ostream& out, std::ostream& err) {
    const ReportOutputs& outputs = options->outputs;
    if (outputs.html_path.empty() && outputs.csv_path.empty() && outputs.markdown_path.empty()) {
      throw UsageError("nothing to write: give -o FILE (HTML), --csv FILE or --markdown FILE");
    }
    CheckOutputPaths({outputs.html_path, outputs.csv_path, outputs.markdown_path}, options->files);
    std::vector<report::LabeledRun> runs;
    for (const std::string& path : options->files) {
      runs.push_back({RunLabel(path, path), results::ReadRunFile(path)});
    }
    // What the page shows, said where a script sees it too.
    if (const std::string warning = report::DifferentAdaptersWarning(runs); !warning.empty()) {
      err << "refract: warning: " << warning << "\n";
    }
    for (const report::LabeledRun& run : runs) {
      if (run.record.rows.empty()) err << "refract: warning: '" << run.label << "' holds no rows\n";
    }
    WriteReports(outputs, runs, out, err);
    return 0;
  };
  return {command, action};
}

}  // namespace refract::cli
