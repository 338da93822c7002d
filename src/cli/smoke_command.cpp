// refract smoke: one verified, timed computation, to prove the machine can run refract.
#include <fmt/format.h>

#include <ostream>

#include "cli/commands.h"
#include "cli/gpu_options.h"
#include "gpu/context.h"
#include "suites/smoke.h"

namespace refract::cli {

Registered RegisterSmoke(CLI::App& app) {
  struct Options {
    GpuOptions gpu;
    uint32_t elements = 4u << 20;
  };
  auto options = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "smoke", "Run one small kernel on the GPU, check it against the CPU, print its time");
  AddGpuOptions(*command, options->gpu);
  command->add_option("--elements", options->elements, "Number of f32 elements")
      ->check(CLI::Range(1u, 1u << 28))
      ->capture_default_str();
  Action action = [options](std::ostream& out, std::ostream&) {
    gpu::Context context(ToContextOptions(options->gpu));
    suites::SmokeResult result = suites::RunSmoke(context, options->elements);
    out << fmt::format(
        "smoke: {} elements on {} ({}): output matches the CPU (max |error| {:.3g}); "
        "GPU time {:.3f} ms, wall {:.3f} ms\n",
        result.elements, context.description().device, context.description().backend,
        result.max_abs_error, result.gpu_ms, result.wall_ms);
    return 0;
  };
  return {command, action};
}

}  // namespace refract::cli
