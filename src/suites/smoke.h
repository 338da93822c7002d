// The smoke computation: one small kernel over a few million elements, checked against the
// CPU and timed. It proves a machine can run refract before any suite does.
#pragma once

#include <cstdint>

#include "gpu/context.h"

namespace refract::suites {

struct SmokeResult {
  uint32_t elements = 0;
  double max_abs_error = 0;  ///< largest |GPU − CPU| over all elements
  double gpu_ms = 0;         ///< GPU timestamp time of one dispatch [ms]; 0 without timestamps
  double wall_ms = 0;        ///< host wall time of the same pass [ms]
};

/// Runs out[i] = in[i]·scale + offset over `elements` values on the GPU, compares every output
/// with the CPU (exact: one f32 multiply-add, fused or not, is within 1 ulp; tolerance 1e-6
/// relative), then times one pass. Throws VerificationError on a mismatch, GpuError on failure.
SmokeResult RunSmoke(gpu::Context& context, uint32_t elements);

}  // namespace refract::suites
