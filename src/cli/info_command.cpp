// refract info: what the adapter is and what the device can do.
#include <sstream>

#include "cli/commands.h"
#include "cli/gpu_options.h"
#include "gpu/context.h"
#include "report/info_table.h"
#include "results/json_io.h"
#include "results/output_file.h"

namespace refract::cli {

Registered RegisterInfo(CLI::App& app) {
  struct Options {
    GpuOptions gpu;
    std::string json_path;
  };
  auto options = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "info", "Show the adapter: names, IDs, subgroup sizes, features, limits, toggles");
  AddGpuOptions(*command, options->gpu);
  command->add_option("--json", options->json_path,
                      "Write the description as JSON to FILE, or to standard output with -");
  Action action = [options](std::ostream& out, std::ostream&) {
    results::CheckOutputWritable(options->json_path);  // before the adapter is asked
    gpu::Context context(ToContextOptions(options->gpu));
    if (!options->json_path.empty()) {
      std::string json = results::DeviceInfoDocument(context.description()).dump(2) + "\n";
      results::WriteOutput(options->json_path, json, out);
      if (options->json_path == "-") return 0;
    }
    report::RenderInfoTable(out, context.description());
    return 0;
  };
  return {command, action};
}

}  // namespace refract::cli
