// The activations: SiLU, GELU (tanh form) and the fused SwiGLU combine silu(gate) · up, as seed
// 003's scalar kernels (baseline; silu-mul = the seed's silu into a buffer of the op's own, then
// its mul) and as one vec4 kernel of `ept` elements an invocation (tuned).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/device_limits.h"
#include "gpu/context.h"
#include "gpu/dispatch_builder.h"
#include "ops/axis.h"
#include "ops/op_support.h"

namespace refract::ops {

enum class ActivationKind { kSilu, kGelu, kSiluMul };

/// "silu", "gelu", "silu-mul".
std::string_view ActivationKindName(ActivationKind kind);

/// The caller's buffers of one call, `count` f32 each: x (silu-mul: the gate), y, silu-mul's up.
struct ActivationBuffers {
  gpu::BufferSlice x, y, up;
};

class ActivationBaselineOp {
 public:
  static Problem Check(ActivationKind kind, uint64_t count, const DeviceLimits& limits);
  /// silu-mul also allocates its intermediate silu(gate).
  ActivationBaselineOp(gpu::Context& context, ActivationKind kind, uint64_t count,
                       std::string label);
  std::vector<gpu::Dispatch> Record(gpu::Context& context, const ActivationBuffers& b) const;

 private:
  ActivationKind kind_;
  uint32_t count_;
  gpu::ComputePipeline first_, mul_;
  gpu::Buffer params_, intermediate_;
};

struct ActivationConfig {
  uint32_t wg = 256;  ///< invocations a workgroup
  uint32_t ept = 2;   ///< elements (vec4 where the count is a multiple of 4) an invocation
};

class ActivationTunedOp {
 public:
  /// wg, ept.
  static const AxisTable<ActivationConfig>& Axes();
  /// 256 invocations of 2 elements.
  static ActivationConfig Resolve(uint64_t count, const DeviceLimits& limits,
                                  const Settings& settings = {});
  static Problem Check(ActivationKind kind, const ActivationConfig& config, uint64_t count,
                       const DeviceLimits& limits);
  ActivationTunedOp(gpu::Context& context, ActivationKind kind, uint64_t count,
                    ActivationConfig config, std::string label);
  std::vector<gpu::Dispatch> Record(gpu::Context& context, const ActivationBuffers& b) const;
  const ActivationConfig& config() const { return config_; }

 private:
  ActivationKind kind_;
  uint32_t count_;
  ActivationConfig config_;
  gpu::ComputePipeline pipeline_;
  gpu::Buffer params_;
};

}  // namespace refract::ops
