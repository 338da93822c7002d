// RoPE in place on q and k: seed 003's kernel (baseline: one thread a pair, the angle from pow)
// and the tuned kernel (one vec4 of a position in `hpt` heads a thread, one sin/cos pair for
// all of them, the frequencies precomputed on the host).
#pragma once

#include <string>
#include <vector>

#include "base/device_limits.h"
#include "gpu/context.h"
#include "gpu/dispatch_builder.h"
#include "ops/axis.h"
#include "ops/op_support.h"
#include "reference/llm_rope.h"

namespace refract::ops {

using reference::RopeShape;

/// The caller's buffers of one call, rotated in place: q [T, heads · d], k [T, kv_heads · d].
struct RopeBuffers {
  gpu::BufferSlice q, k;
};

/// base^(−2i / d) for i < d / 2, computed in double and rounded once (the tuned kernel's table).
std::vector<float> RopeInverseFrequencies(const RopeShape& shape);

class RopeBaselineOp {
 public:
  static Problem Check(const RopeShape& shape, const DeviceLimits& limits);
  RopeBaselineOp(gpu::Context& context, RopeShape shape, std::string label);
  std::vector<gpu::Dispatch> Record(gpu::Context& context, const RopeBuffers& buffers) const;

 private:
  RopeShape shape_;
  gpu::ComputePipeline pipeline_;
  gpu::Buffer params_;
};

struct RopeConfig {
  uint32_t wg = 256;  ///< invocations a workgroup
  uint32_t hpt = 4;   ///< heads an invocation rotates with one sin/cos pair
};

class RopeTunedOp {
 public:
  /// wg, hpt.
  static const AxisTable<RopeConfig>& Axes();
  /// 256 invocations; hpt the largest of 4, 3, 2, 1 that divides heads + kv_heads (no idle
  /// slots).
  static RopeConfig Resolve(const RopeShape& shape, const DeviceLimits& limits,
                            const Settings& settings = {});
  /// head_dim a multiple of 4 (the kernel rotates vec4), the workgroup and the bindings.
  static Problem Check(const RopeConfig& config, const RopeShape& shape,
                       const DeviceLimits& limits);
  /// Also uploads the inverse frequencies.
  RopeTunedOp(gpu::Context& context, RopeShape shape, RopeConfig config, std::string label);
  std::vector<gpu::Dispatch> Record(gpu::Context& context, const RopeBuffers& buffers) const;
  const RopeConfig& config() const { return config_; }

 private:
  RopeShape shape_;
  RopeConfig config_;
  gpu::ComputePipeline pipeline_;
  gpu::Buffer params_, inv_freq_;
};

}  // namespace refract::ops
