// One GPU context for a whole test binary: creating a device on lavapipe takes a while.
#pragma once

#include "gpu/context.h"

namespace refract::testing {

/// The binary's context on the machine's Vulkan adapter, created on first use.
gpu::Context& SharedContext();

}  // namespace refract::testing
