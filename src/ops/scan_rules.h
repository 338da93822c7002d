// The 2-bit corpus scan (seed 004's tail; docs/KERNELS.md "2-bit corpus scan"): every vector's
// scores against 8 queries through per-query lookup tables, `vpt` vectors an invocation, the
// table read from storage or first copied into workgroup memory.
#pragma once

#include <cstdint>

#include "ops/op_rules.h"

namespace refract::ops {

struct ScanShape {
  uint32_t vectors = 0;
  uint32_t d = 0;  ///< codes a vector, a multiple of 16
};

struct ScanConfig {
  uint32_t wg = 256;        ///< invocations a workgroup
  uint32_t lut_shared = 1;  ///< 1: the table copied into workgroup memory; 0: read from storage
  uint32_t vpt = 1;         ///< vectors an invocation
};

/// The table's bytes: 8 × d × 4 f32.
inline uint64_t ScanTableBytes(uint32_t d) { return uint64_t{8} * d * 4 * 4; }

/// wg, lut_shared, vpt. Default (the seed's tail): 256 invocations of one vector, the table in
/// workgroup memory where it fits the device, else in storage.
extern const OpRules<ScanShape, ScanConfig> kScanRules;

}  // namespace refract::ops
