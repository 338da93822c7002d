// The tuned GEMM (M > 1) of the f32 and q4 matmuls: a workgroup computes a bm × bn tile of C with
// (bm / tm) · (bn / tn) invocations of tm × tn outputs each, staging bk of K at a time in
// workgroup memory (llm_gemm_core_part.wgsl; q4 dequantizes its B tile there).
#pragma once

#include <string>
#include <vector>

#include "base/device_limits.h"
#include "gpu/context.h"
#include "gpu/dispatch_builder.h"
#include "ops/axis.h"
#include "ops/matmul_dims.h"
#include "ops/op_support.h"

namespace refract::ops {

struct GemmConfig {
  uint32_t bm = 128, bn = 128, bk = 16, tm = 8, tn = 8;
  uint32_t a_pad = 4;  ///< floats padding each staged row of A (against bank conflicts)
  uint32_t Invocations() const { return (bm / tm) * (bn / tn); }
  /// Workgroup memory of the two tiles [bytes].
  uint32_t TileBytes() const { return bk * (bm + a_pad) * 4 + bk * bn * 4; }
};

/// The caller's buffers of one call. a: [M, K] rows padded with zeros to whole vec4; f32 B
/// (`w`): [K, N] rows padded to whole vec4 (Wᵀ); q4: the MatMulNBits blocks (`w`) and `scales`;
/// c: [M, N] rows padded to whole vec4 (CStride()).
struct GemmBuffers {
  gpu::BufferSlice a, w, scales, c;
};

class GemmOp {
 public:
  /// bm, bn, bk, tm, tn, a_pad.
  static const AxisTable<GemmConfig>& Axes();
  /// The default for the shape and device with `settings` fixed: the first of 128 × 128 × 16
  /// tiles of 8 × 8, 64 × 64 tiles of 4 × 4, 32 × 32 tiles of 4 × 4 that gives at least 128
  /// workgroups (about one a multiprocessor of a large GPU), else the last (bk 32 for q4's smaller
  /// tiers, whose B tile is loaded a u32 word of 8 codes a thread); A padded by 4 unless that
  /// takes the tiles over the device's workgroup memory.
  static GemmConfig Resolve(Weights weights, const MatmulDims& dims, const DeviceLimits& limits,
                            const Settings& settings = {});
  static Problem Check(Weights weights, const GemmConfig& config, const MatmulDims& dims,
                       const DeviceLimits& limits);

  GemmOp(gpu::Context& context, Weights weights, MatmulDims dims, GemmConfig config,
         std::string label);

  std::vector<gpu::Dispatch> Record(gpu::Context& context, const GemmBuffers& buffers) const;
  const GemmConfig& config() const { return config_; }
  /// C's row stride: N rounded up to whole vec4 [floats].
  uint32_t CStride() const { return static_cast<uint32_t>(PaddedTo4(dims_.n)); }

 private:
  Weights weights_;
  MatmulDims dims_;
  GemmConfig config_;
  gpu::ComputePipeline pipeline_;
  gpu::Buffer params_;
};

}  // namespace refract::ops
