// The f16 sweep's matmul (SWEEPS.md "f16"): C = A · B with f16 A and B, C in f32, tiles staged in
// workgroup memory, accumulating in f32 or in f16. Needs shader-f16.
#pragma once

#include <cstdint>

#include "ops/matmul_rules.h"

namespace refract::ops {

struct MatmulF16Config {
  uint32_t bm = 64, bn = 64, bk = 16, tm = 4, tn = 4;
  uint32_t acc_f16 = 0;  ///< 1: accumulate in f16; 0: in f32
  uint32_t Invocations() const { return (bm / tm) * (bn / tn); }
  /// Workgroup memory of the two f16 tiles [bytes].
  uint32_t TileBytes() const { return (bm * bk + bk * bn) * 2; }
};

/// bm, bn, bk, tm, tn, acc_f16. Default: 64 × 64 tiles of 4 × 4, bk 16, f32 accumulation.
extern const OpRules<MatmulDims, MatmulF16Config> kMatmulF16Rules;

}  // namespace refract::ops
