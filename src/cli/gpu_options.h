// Options every GPU subcommand shares (adapter choice, limits, toggles) and their flags.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "gpu/context.h"

namespace refract::cli {

struct GpuOptions {
  std::string adapter = "high-performance";
  bool default_limits = false;
  std::vector<std::string> enable_toggles;
  std::vector<std::string> disable_toggles;
};

/// Adds --adapter, --default-limits, --enable-toggle and --disable-toggle to `command`.
void AddGpuOptions(CLI::App& command, GpuOptions& options);

/// The context options the flags ask for.
gpu::ContextOptions ToContextOptions(const GpuOptions& options);

}  // namespace refract::cli
