// Options every GPU subcommand shares (adapter choice, limits, toggles, the watchdog) and their
// flags.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "gpu/context.h"

namespace refract::cli {

struct GpuOptions {
  std::string adapter = "high-performance";
  bool default_limits = false;
  std::vector<std::string> enable_toggles;
  std::vector<std::string> disable_toggles;
  /// The watchdog: the longest wait for the GPU before the work counts as hung [s]; 0 = none.
  double timeout_s = 120;
};

/// What --adapter takes: the requests Dawn's C API can tell apart (a power preference, or the
/// fallback adapter); it has no call that enumerates every adapter.
const std::vector<std::string>& AdapterChoices();

/// Adds --adapter, --default-limits, --enable-toggle, --disable-toggle and --timeout-s to
/// `command`.
void AddGpuOptions(CLI::App& command, GpuOptions& options);

/// The context options the flags ask for.
gpu::ContextOptions ToContextOptions(const GpuOptions& options);

}  // namespace refract::cli
