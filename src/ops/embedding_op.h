// The embedding gather output[t] = table[ids[t]]: seed 003's flat gather (baseline: one element
// a thread) and the tuned gather (one 16-byte row slice an invocation, scalar where the hidden
// size is not a multiple of 4).
#pragma once

#include <string>
#include <vector>

#include "base/device_limits.h"
#include "gpu/context.h"
#include "gpu/dispatch_builder.h"
#include "ops/axis.h"
#include "ops/op_support.h"

namespace refract::ops {

struct EmbeddingShape {
  uint32_t tokens = 0;  ///< T
  uint32_t hidden = 0;  ///< a row [f32]
  uint32_t vocab = 0;   ///< the table's rows
};

/// The caller's buffers of one call: ids [T] u32, table [vocab, hidden] f32, output [T, hidden].
struct EmbeddingBuffers {
  gpu::BufferSlice ids, table, output;
};

class EmbeddingBaselineOp {
 public:
  static Problem Check(const EmbeddingShape& shape, const DeviceLimits& limits);
  EmbeddingBaselineOp(gpu::Context& context, EmbeddingShape shape, std::string label);
  std::vector<gpu::Dispatch> Record(gpu::Context& context, const EmbeddingBuffers& b) const;

 private:
  EmbeddingShape shape_;
  gpu::ComputePipeline pipeline_;
  gpu::Buffer params_;
};

struct EmbeddingConfig {
  uint32_t wg = 256;  ///< invocations a workgroup
};

class EmbeddingTunedOp {
 public:
  /// wg.
  static const AxisTable<EmbeddingConfig>& Axes();
  static EmbeddingConfig Resolve(const EmbeddingShape& shape, const DeviceLimits& limits,
                                 const Settings& settings = {});
  static Problem Check(const EmbeddingConfig& config, const EmbeddingShape& shape,
                       const DeviceLimits& limits);
  EmbeddingTunedOp(gpu::Context& context, EmbeddingShape shape, EmbeddingConfig config,
                   std::string label);
  std::vector<gpu::Dispatch> Record(gpu::Context& context, const EmbeddingBuffers& b) const;
  const EmbeddingConfig& config() const { return config_; }
  /// "vec4" (hidden a multiple of 4) or "scalar": the entry point the shape takes.
  static const char* PathOf(const EmbeddingShape& shape);

 private:
  EmbeddingShape shape_;
  EmbeddingConfig config_;
  gpu::ComputePipeline pipeline_;
  gpu::Buffer params_;
};

}  // namespace refract::ops
