// The element-wise add (residual) and mul (SwiGLU combine): seed 003's scalar kernels (baseline)
// and the vec4 kernel of `vpt` vec4 an invocation (tuned; buffers padded to whole vec4).
#pragma once

#include <string>
#include <vector>

#include "base/device_limits.h"
#include "gpu/context.h"
#include "gpu/dispatch_builder.h"
#include "ops/axis.h"
#include "ops/op_support.h"

namespace refract::ops {

enum class BinaryKind { kAdd, kMul };

/// "add" or "mul".
const char* BinaryKindName(BinaryKind kind);

/// The caller's buffers of one call: output = a + b (or a · b), `count` f32 each; for the tuned
/// op each holds count rounded up to whole vec4 (the last vec4 is written whole).
struct BinaryBuffers {
  gpu::BufferSlice a, b, output;
};

class BinaryBaselineOp {
 public:
  static Problem Check(uint64_t count, const DeviceLimits& limits);
  BinaryBaselineOp(gpu::Context& context, BinaryKind kind, uint64_t count, std::string label);
  std::vector<gpu::Dispatch> Record(gpu::Context& context, const BinaryBuffers& buffers) const;

 private:
  uint32_t count_;
  gpu::ComputePipeline pipeline_;
  gpu::Buffer params_;
};

struct BinaryConfig {
  uint32_t wg = 256;  ///< invocations a workgroup
  uint32_t vpt = 1;   ///< vec4 an invocation
};

class BinaryTunedOp {
 public:
  /// wg, vpt.
  static const AxisTable<BinaryConfig>& Axes();
  /// 256 invocations of one vec4.
  static BinaryConfig Resolve(uint64_t count, const DeviceLimits& limits,
                              const Settings& settings = {});
  static Problem Check(const BinaryConfig& config, uint64_t count, const DeviceLimits& limits);
  BinaryTunedOp(gpu::Context& context, BinaryKind kind, uint64_t count, BinaryConfig config,
                std::string label);
  std::vector<gpu::Dispatch> Record(gpu::Context& context, const BinaryBuffers& buffers) const;
  const BinaryConfig& config() const { return config_; }

 private:
  uint32_t count_;
  BinaryConfig config_;
  gpu::ComputePipeline pipeline_;
  gpu::Buffer params_;
};

}  // namespace refract::ops
