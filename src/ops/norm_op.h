// The normalisations: RMSNorm, LayerNorm and the fused residual add + RMSNorm, as seed 003's
// kernels (baseline: one workgroup of 256 a row, and the seed's add before its rmsnorm) and as
// one register-resident kernel (tuned: the row read once, RowConfig's layout).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/device_limits.h"
#include "gpu/context.h"
#include "gpu/dispatch_builder.h"
#include "ops/axis.h"
#include "ops/op_support.h"
#include "ops/row_layout.h"
#include "reference/llm_norm.h"

namespace refract::ops {

using reference::NormShape;

enum class NormKind {
  kRmsNorm,     ///< y = RMSNorm(x) · weight
  kLayerNorm,   ///< y = LayerNorm(x) · weight + bias
  kAddRmsNorm,  ///< h = x + b, y = RMSNorm(h) · weight
};

/// "rmsnorm", "layernorm", "add-rmsnorm".
std::string_view NormKindName(NormKind kind);

/// The caller's buffers of one call, [rows, hidden] f32 unless said: x; weight [hidden]; y;
/// layernorm's bias [hidden]; add-rmsnorm's b and h (h = x + b, written).
struct NormBuffers {
  gpu::BufferSlice x, weight, y, bias, b, h;
};

/// Seed 003's kernels (§4, §5), and for add-rmsnorm the seed's add then its rmsnorm.
class NormBaselineOp {
 public:
  static Problem Check(NormKind kind, const NormShape& shape, const DeviceLimits& limits);
  NormBaselineOp(gpu::Context& context, NormKind kind, NormShape shape, std::string label);
  std::vector<gpu::Dispatch> Record(gpu::Context& context, const NormBuffers& buffers) const;

 private:
  NormKind kind_;
  NormShape shape_;
  gpu::ComputePipeline add_, norm_;
  gpu::Buffer add_params_, params_;
};

class NormTunedOp {
 public:
  /// llm_norm_tuned.wgsl keeps at most 16 elements an invocation.
  static constexpr RowKernel kKernel{.max_kept = 16, .kept_target = 1};
  /// wg, vpt, subgroups.
  static const AxisTable<RowConfig>& Axes();
  /// ResolveRow at the hidden size.
  static RowConfig Resolve(const NormShape& shape, const DeviceLimits& limits,
                           const Settings& settings = {});
  /// CheckRow, and the whole row kept: wg · vpt · width ≥ hidden.
  static Problem Check(NormKind kind, const RowConfig& config, const NormShape& shape,
                       const DeviceLimits& limits);
  NormTunedOp(gpu::Context& context, NormKind kind, NormShape shape, RowConfig config,
              std::string label);
  std::vector<gpu::Dispatch> Record(gpu::Context& context, const NormBuffers& buffers) const;
  const RowConfig& config() const { return config_; }

 private:
  NormKind kind_;
  NormShape shape_;
  RowConfig config_;
  gpu::ComputePipeline pipeline_;
  gpu::Buffer params_;
};

}  // namespace refract::ops
