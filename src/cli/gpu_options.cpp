#include "cli/gpu_options.h"

#include "cli/number_checks.h"

namespace refract::cli {

const std::vector<std::string>& AdapterChoices() {
  static const std::vector<std::string> choices = {"high-performance", "low-power", "fallback"};
  return choices;
}

void AddGpuOptions(CLI::App& command, GpuOptions& options) {
  command
      .add_option("--adapter", options.adapter,
                  "Which Vulkan adapter to ask Dawn for: the high-performance or low-power one, "
                  "or its fallback (CPU) adapter (`refract info --list-adapters` lists them)")
      ->check(CLI::IsMember(AdapterChoices()))
      ->capture_default_str();
  command.add_flag("--default-limits", options.default_limits,
                   "Create the device with WebGPU's default limits (as a browser page gets)");
  command.add_option("--enable-toggle", options.enable_toggles,
                     "Enable a Dawn toggle on the device (repeatable)");
  command.add_option("--disable-toggle", options.disable_toggles,
                     "Disable a Dawn toggle on the device (repeatable)");
  // At most a week: the watchdog counts whole milliseconds in 64 bits, far beyond it.
  CheckFiniteWithin(
      command.add_option("--timeout-s", options.timeout_s,
                         "Longest wait for the GPU [s]; past it the kernel counts as hung, the "
                         "rows so far are written and refract exits with 3 (0: wait forever)"),
      0.0, 7 * 24 * 3600.0)
      ->capture_default_str();
}

gpu::ContextOptions ToContextOptions(const GpuOptions& options) {
  gpu::ContextOptions context_options;
  context_options.power_preference = options.adapter == "low-power"
                                         ? gpu::PowerPreference::kLowPower
                                         : gpu::PowerPreference::kHighPerformance;
  context_options.force_fallback_adapter = options.adapter == "fallback";
  context_options.default_limits = options.default_limits;
  context_options.extra_enabled_toggles = options.enable_toggles;
  context_options.extra_disabled_toggles = options.disable_toggles;
  context_options.wait_timeout_s = options.timeout_s;
  return context_options;
}

}  // namespace refract::cli
