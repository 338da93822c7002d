// The subcommands. Each Register… adds its CLI11 subcommand and returns the action that runs
// it once the arguments parsed; the action returns an exit code.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <iosfwd>

namespace refract::cli {

using Action = std::function<int(std::ostream& out, std::ostream& err)>;

struct Registered {
  CLI::App* command;
  Action action;
};

Registered RegisterInfo(CLI::App& app);
Registered RegisterSmoke(CLI::App& app);
Registered RegisterCeilings(CLI::App& app);
Registered RegisterKernels(CLI::App& app);
Registered RegisterDecode(CLI::App& app);
Registered RegisterSweep(CLI::App& app);
Registered RegisterTune(CLI::App& app);
Registered RegisterReport(CLI::App& app);
Registered RegisterCompare(CLI::App& app);
Registered RegisterProfile(CLI::App& app);

}  // namespace refract::cli
