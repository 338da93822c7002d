#include "cli/app.h"

#include <CLI/CLI.hpp>
#include <ostream>

#include "base/error.h"
#include "cli/commands.h"

namespace refract::cli {
namespace {

// The subcommand table, in the order `refract --help` lists them. One a line (clang-format would
// pack them), so that adding a subcommand is a one-line change.
// clang-format off
constexpr Registered (*kSubcommands[])(CLI::App&) = {
    RegisterInfo,
    RegisterCeilings,
    RegisterKernels,
    RegisterDecode,
    RegisterSweep,
    RegisterTune,
    RegisterSmoke,
    RegisterReport,
    RegisterCompare,
    RegisterProfile,
};
// clang-format on

}  // namespace

int Run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app("refract: what a GPU can really do through WebGPU (Dawn), measured and verified",
               "refract");
  app.set_version_flag("--version", std::string("refract ") + REFRACT_VERSION + " (Dawn " +
                                        REFRACT_DAWN_PACKAGE + ")");
  app.require_subcommand(1);
  std::vector<Registered> actions;
  for (auto register_subcommand : kSubcommands) actions.push_back(register_subcommand(app));

  // An unknown first word would read as a stray argument ("A subcommand is required").
  std::string names;
  bool known = false;
  for (const auto& [command, action] : actions) {
    names += (names.empty() ? "" : ", ") + command->get_name();
    known = known || (args.size() > 1 && args[1] == command->get_name());
  }
  if (args.size() > 1 && !args[1].empty() && args[1][0] != '-' && !known) {
    err << "refract: unknown command '" << args[1] << "' (the commands: " << names << ")\n"
        << "run 'refract --help' for the options\n";
    return kExitUsage;
  }
  std::vector<std::string> reversed(args.rbegin(), args.rend() - (args.empty() ? 0 : 1));
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::CallForVersion&) {
    out << app.version() << "\n";
    return kExitOk;
  } catch (const CLI::ParseError& error) {
    // The error and where to look, not the whole help: it would scroll the error away.
    // The deepest subcommand named ("refract profile merge --help"), not its parent.
    std::string help_command = "refract";
    for (const CLI::App* level = &app; level != nullptr;) {
      const CLI::App* named = nullptr;
      for (const CLI::App* sub : level->get_subcommands([](const CLI::App* s) { return s->parsed(); })) {
        named = sub;
      }
      if (named != nullptr) help_command += " " + named->get_name();
      level = named;
    }
    help_command += " --help";
    err << "refract: " << error.what() << "\n"
        << "run '" << help_command << "' for the options\n";
    return kExitUsage;
  }

  for (const auto& [command, action] : actions) {
    if (!command->parsed()) continue;
    int code = kExitUsage;
    try {
      code = action(out, err);
    } catch (const UsageError& error) {
      std::string help_command = "refract " + command->get_name();
      for (const CLI::App* sub : command->get_subcommands({})) {
        if (sub->parsed()) help_command += " " + sub->get_name();
      }
      err << "refract: " << error.what() << "\n"
          << "run '" << help_command << " --help' for the options\n";
      return kExitUsage;
    } catch (const EnvironmentError& error) {  // also OutputError: an unwritable output
      err << "refract: " << error.what() << "\n";
      return kExitUsage;
    } catch (const Error& error) {
      // An error no row caught: its source location helps a report, after the message.
      err << "refract: error: " << error.what()
          << (error.location().empty() ? "" : " (at " + error.location() + ")") << "\n";
      return kExitRowsFailed;
    } catch (const std::exception& error) {
      err << "refract: error: " << error.what() << "\n";
      return kExitRowsFailed;
    }
    // Standard output is an output too (the tables, `--json -`): a failed write is not a
    // success. SIGPIPE is ignored (main.cpp), so a reader that left shows up here.
    out.flush();
    if (!out) {
      err << "refract: cannot write to standard output\n";
      return kExitUsage;
    }
    return code;
  }
  return kExitUsage;
}

}  // namespace refract::cli
