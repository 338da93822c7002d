#include "testing/shared_context.h"

namespace refract::testing {

gpu::Context& SharedContext() {
  static gpu::Context context;
  return context;
}

}  // namespace refract::testing
