// Attention: seed 003's causal kernel (baseline: thread 0 of a workgroup does a (query, head)'s
// work) and the flash-style kernel (tuned: online softmax, K/V tiles in workgroup memory, the
// query heads of a KV head served together, the keys split across workgroups where the rows
// alone make too few of them, then merged by a second dispatch).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/device_limits.h"
#include "gpu/context.h"
#include "gpu/dispatch_builder.h"
#include "ops/axis.h"
#include "ops/op_support.h"
#include "reference/llm_attention.h"

namespace refract::ops {

using reference::AttentionShape;

/// The caller's buffers of one call: q [T, heads · d], k and v [S, kv_heads · d], out like q.
struct AttentionBuffers {
  gpu::BufferSlice q, k, v, out;
};

class AttentionBaselineOp {
 public:
  /// The seed's kernel is causal: a non-causal shape is refused.
  static Problem Check(const AttentionShape& shape, const DeviceLimits& limits);
  AttentionBaselineOp(gpu::Context& context, AttentionShape shape, std::string label);
  std::vector<gpu::Dispatch> Record(gpu::Context& context, const AttentionBuffers& b) const;

 private:
  AttentionShape shape_;
  gpu::ComputePipeline pipeline_;
  gpu::Buffer params_;
};

/// The tuned kernel's tiling (llm_attention_tuned.wgsl's overrides) and its split of the keys.
struct AttentionConfig {
  uint32_t tr = 16;         ///< thread rows
  uint32_t tc = 16;         ///< threads sharing a row block (and a tile's keys)
  uint32_t rq = 2;          ///< rows a thread owns
  uint32_t rk = 2;          ///< keys a thread scores a tile
  uint32_t v_tiles = 2;     ///< 2: V in its own tile; 1: V reuses K's
  uint32_t split_keys = 0;  ///< keys one split covers; 0: one split

  uint32_t Invocations() const { return tr * tc; }
  uint32_t BlockRows() const { return tr * rq; }  ///< BQ
  uint32_t TileKeys() const { return tc * rk; }   ///< BK
  /// Workgroup memory of the kernel at `head_dim` [bytes].
  uint64_t WorkgroupBytes(uint32_t head_dim) const;
};

class AttentionTunedOp {
 public:
  /// tr, tc, rq, rk, v_tiles, split_keys.
  static const AxisTable<AttentionConfig>& Axes();
  /// Defaults for the path (decode = one query position: 8 thread rows of 1 row, 16 columns of
  /// 4 keys; prefill: 16 of 4, 16 of 2) shrunk until they fit the device's workgroup memory,
  /// then `settings`; without split_keys set, a shape whose row blocks make fewer than 128
  /// workgroups splits its keys into whole tiles until the grid reaches 128 (decode at
  /// S = 4096: 64 splits of 64 keys).
  static AttentionConfig Resolve(const AttentionShape& shape, const DeviceLimits& limits,
                                 const Settings& settings = {});
  static Problem Check(const AttentionConfig& config, const AttentionShape& shape,
                       const DeviceLimits& limits);
  /// Also allocates the split partials when the keys are split.
  AttentionTunedOp(gpu::Context& context, AttentionShape shape, AttentionConfig config,
                   std::string label);
  std::vector<gpu::Dispatch> Record(gpu::Context& context, const AttentionBuffers& b) const;
  const AttentionConfig& config() const { return config_; }
  /// Workgroups along the keys (grid z).
  uint32_t splits() const { return splits_; }
  /// The splits `config` makes of the keys: ceil(S / split_keys), 1 without split_keys.
  static uint32_t SplitsFor(const AttentionConfig& config, const AttentionShape& shape);

 private:
  AttentionShape shape_;
  AttentionConfig config_;
  uint32_t splits_ = 1;
  gpu::ComputePipeline main_, combine_;
  gpu::Buffer params_, part_o_, part_ml_;
};

}  // namespace refract::ops
