// Softmax over rows (attention scores): seed 003's three-pass kernel (baseline) and the
// one-read, register-resident row kernel (tuned: RowConfig's layout; elements beyond wg · vpt
// of a longer row are read again in each phase).
#pragma once

#include <string>
#include <vector>

#include "base/device_limits.h"
#include "gpu/context.h"
#include "gpu/dispatch_builder.h"
#include "ops/axis.h"
#include "ops/op_support.h"
#include "ops/row_layout.h"

namespace refract::ops {

struct SoftmaxShape {
  uint32_t rows = 1;
  uint32_t row_size = 1;
};

/// The caller's buffers of one call: input and output, [rows, row_size] f32 each.
struct SoftmaxBuffers {
  gpu::BufferSlice input, output;
};

class SoftmaxBaselineOp {
 public:
  static Problem Check(const SoftmaxShape& shape, const DeviceLimits& limits);
  SoftmaxBaselineOp(gpu::Context& context, SoftmaxShape shape, std::string label);
  std::vector<gpu::Dispatch> Record(gpu::Context& context, const SoftmaxBuffers& buffers) const;

 private:
  SoftmaxShape shape_;
  gpu::ComputePipeline pipeline_;
  gpu::Buffer params_;
};

class SoftmaxTunedOp {
 public:
  /// 8 elements an invocation by default: on the H200 a 2048-float row took 115 µs a
  /// 28,672-row pass with 64 invocations of 8 vec4 (and 32 × 16), 116 with 128 × 4, 140 with
  /// 256 × 2 (2026-12-01); at most 16 (llm_softmax_tuned.wgsl's kMaxKept).
  static constexpr RowKernel kKernel{.max_kept = 16, .kept_target = 8};
  /// wg, vpt, subgroups.
  static const AxisTable<RowConfig>& Axes();
  static RowConfig Resolve(const SoftmaxShape& shape, const DeviceLimits& limits,
                           const Settings& settings = {});
  static Problem Check(const RowConfig& config, const SoftmaxShape& shape,
                       const DeviceLimits& limits);
  SoftmaxTunedOp(gpu::Context& context, SoftmaxShape shape, RowConfig config, std::string label);
  std::vector<gpu::Dispatch> Record(gpu::Context& context, const SoftmaxBuffers& buffers) const;
  const RowConfig& config() const { return config_; }

 private:
  SoftmaxShape shape_;
  RowConfig config_;
  gpu::ComputePipeline pipeline_;
  gpu::Buffer params_;
};

}  // namespace refract::ops
