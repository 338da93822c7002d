// refract info: what the adapter is and what the device can do.
#include <fmt/format.h>

#include <map>
#include <sstream>

#include "base/adapter_identity.h"
#include "base/error.h"
#include "cli/app.h"
#include "cli/commands.h"
#include "cli/number_checks.h"
#include "cli/gpu_options.h"
#include "gpu/context.h"
#include "report/info_table.h"
#include "results/json_io.h"
#include "results/output_file.h"

namespace refract::cli {
namespace {

/// Every --adapter choice and the adapter Dawn gives for it (Dawn's C API enumerates nothing:
/// wgpuInstanceRequestAdapter answers one request at a time), or why it gave none.
int ListAdapters(const GpuOptions& gpu, std::ostream& out) {
  std::map<std::string, std::string> first_choice_of;  // by key
  int found = 0;
  for (const std::string& choice : AdapterChoices()) {
    GpuOptions options = gpu;
    options.adapter = choice;
    try {
      gpu::Context context(ToContextOptions(options));
      const DeviceDescription& d = context.description();
      const std::string key = IdentityOf(d).Key();
      out << fmt::format("--adapter {:<16}  {} ({}, {})\n", choice, d.device, d.adapter_type,
                         d.backend);
      out << "  profile key: " << key << "\n";
      if (auto same = first_choice_of.find(key); same != first_choice_of.end()) {
        out << "  the same adapter as --adapter " << same->second << "\n";
      } else {
        first_choice_of[key] = choice;
        ++found;
      }
    } catch (const EnvironmentError& error) {
      out << fmt::format("--adapter {:<16}  none: {}\n", choice, error.what());
    }
  }
  out << found << " distinct Vulkan adapter" << (found == 1 ? "" : "s")
      << " (Dawn's C API has no enumeration: these are the adapters its requests reach)\n";
  return found > 0 ? kExitOk : kExitUsage;
}

}  // namespace

Registered RegisterInfo(CLI::App& app) {
  struct Options {
    GpuOptions gpu;
    std::string json_path;
    bool list_adapters = false;
  };
  auto options = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "info", "Show the adapter: names, IDs, subgroup sizes, features, limits, toggles");
  AddGpuOptions(*command, options->gpu);
  CLI::Option* json = CheckFileName(command->add_option(
      "--json", options->json_path,
      "Write the description as JSON to FILE, or to standard output with -"));
  // The listing asks for every adapter choice and writes no description: --json and --adapter
  // would mean nothing beside it.
  command
      ->add_flag("--list-adapters", options->list_adapters,
                 "List the adapter each --adapter choice gets (with its profile key)")
      ->excludes(json)
      ->excludes(command->get_option("--adapter"));
  Action action = [options](std::ostream& out, std::ostream&) {
    if (options->list_adapters) return ListAdapters(options->gpu, out);
    results::CheckOutputWritable(options->json_path);  // before the adapter is asked
    gpu::Context context(ToContextOptions(options->gpu));
    if (!options->json_path.empty()) {
      std::string json = results::DeviceInfoDocument(context.description()).dump(2) + "\n";
      results::WriteOutput(options->json_path, json, out);
      if (options->json_path == "-") return 0;
    }
    report::RenderInfoTable(out, context.description());
    out << "profile key: " << IdentityOf(context.description()).Key() << "\n";
    return 0;
  };
  return {command, action};
}

}  // namespace refract::cli
