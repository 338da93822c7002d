#include "testing/shared_context.h"

namespace refract::testing {

namespace {

// lavapipe compiles a pipeline when it first runs, inside the pass: a decode attention kernel
// takes up to a minute on a quiet 2-core machine, several under ASan on a loaded one. The tests'
// own budget is CTest's (600 s a test), so a wait gives up only past it.
gpu::ContextOptions TestOptions() {
  gpu::ContextOptions options;
  options.wait_timeout_s = 590;
  return options;
}

}  // namespace

gpu::Context& SharedContext() {
  static gpu::Context context(TestOptions());
  return context;
}

}  // namespace refract::testing
