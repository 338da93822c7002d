// The tuned GEMV (M = 1) of the f32 and q4 matmuls: y[N] = W · x, row groups of `tpr`
// invocations striding along K, each keeping `rows` rows' partial sums, the sums finished in a
// subgroup butterfly or a workgroup-memory tree (llm_gemv_*_part.wgsl).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/device_limits.h"
#include "gpu/context.h"
#include "gpu/dispatch_builder.h"
#include "ops/axis.h"
#include "ops/matmul_dims.h"
#include "ops/op_support.h"

namespace refract::ops {

struct GemvConfig {
  uint32_t wg = 256;       ///< invocations a workgroup
  uint32_t tpr = 32;       ///< invocations along K a row group
  uint32_t rows = 2;       ///< rows an invocation accumulates
  uint32_t subgroups = 0;  ///< 1: row sums through subgroup shuffles; 0: workgroup memory
  uint32_t RowsPerWorkgroup() const { return wg / tpr * rows; }
};

/// The caller's buffers of one call. x: [K] padded with zeros to whole vec4; f32 W: [N, K]
/// rows padded the same way (in `w`); q4: the blocks (`w`) and `scales`; y: [N].
struct GemvBuffers {
  gpu::BufferSlice x, w, scales, y;
};

class GemvOp {
 public:
  /// wg, tpr, rows, subgroups.
  static const AxisTable<GemvConfig>& Axes();
  /// The default for the shape and device with `settings` fixed: 256 invocations, 32 along K a
  /// row group; 2 rows an invocation for f32; for q4 on a GPU 1 below 8192 rows (a narrow matrix
  /// needs the workgroups that more rows an invocation would merge) and 2 from there, on a CPU
  /// adapter 4 (a CPU runs few invocations at once and pays for each); subgroup sums where the
  /// device has them and tpr fits its smallest subgroup.
  static GemvConfig Resolve(Weights weights, const MatmulDims& dims, const DeviceLimits& limits,
                            const Settings& settings = {});
  /// Why `config` cannot run at `dims` on a device with `limits`, or nothing.
  static Problem Check(Weights weights, const GemvConfig& config, const MatmulDims& dims,
                       const DeviceLimits& limits);

  /// Compiles the kernel (UsageError when Check refuses) and makes its uniform.
  GemvOp(gpu::Context& context, Weights weights, MatmulDims dims, GemvConfig config,
         std::string label);

  /// The dispatches of one call.
  std::vector<gpu::Dispatch> Record(gpu::Context& context, const GemvBuffers& buffers) const;
  const GemvConfig& config() const { return config_; }

 private:
  Weights weights_;
  MatmulDims dims_;
  GemvConfig config_;
  gpu::ComputePipeline pipeline_;
  gpu::Buffer params_;
};

}  // namespace refract::ops
