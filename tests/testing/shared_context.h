// One GPU context for a whole test binary: creating a device on lavapipe takes a while.
#pragma once

#include "gpu/context.h"

namespace refract::testing {

/// The binary's context on the machine's Vulkan adapter, created on first use; its GPU waits give
/// up after 590 s, inside CTest's 600 s a test (lavapipe compiles pipelines when they first run).
gpu::Context& SharedContext();

}  // namespace refract::testing
