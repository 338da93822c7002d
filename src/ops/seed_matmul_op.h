// The matmuls exactly as seed 003 describes them (the baseline variants): the 16 × 16 tiled f32
// matmul on B [K, N], and the untiled int4 matmul on the seed's own layout (8 codes a u32 along
// the flat [K, N] order, f32 scale and zero a group of 32 flat elements).
#pragma once

#include <string>
#include <vector>

#include "base/device_limits.h"
#include "gpu/context.h"
#include "gpu/dispatch_builder.h"
#include "ops/matmul_dims.h"
#include "ops/op_support.h"

namespace refract::ops {

/// The seed int4 layout's group of flat elements sharing a scale and zero.
inline constexpr uint32_t kSeedInt4GroupSize = 32;

/// The caller's buffers of one call: a [M, K]; f32: b [K, N]; int4: the packed words (`b`),
/// `scales` and `zeros`; c [M, N], all unpadded.
struct SeedMatmulBuffers {
  gpu::BufferSlice a, b, scales, zeros, c;
};

class SeedMatmulOp {
 public:
  /// `weights`: kF32 for seed §2's kernel, kQ4 for §3's int4 kernel. No tunable axes.
  static Problem Check(Weights weights, const MatmulDims& dims, const DeviceLimits& limits);

  SeedMatmulOp(gpu::Context& context, Weights weights, MatmulDims dims, std::string label);

  std::vector<gpu::Dispatch> Record(gpu::Context& context, const SeedMatmulBuffers& buffers) const;

 private:
  Weights weights_;
  MatmulDims dims_;
  gpu::ComputePipeline pipeline_;
  gpu::Buffer params_;
};

}  // namespace refract::ops
