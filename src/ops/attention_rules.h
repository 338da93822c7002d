// Attention: seed 003's causal kernel (baseline: thread 0 of a workgroup does a (query, head)'s
// work) and the flash-style kernel (tuned: online softmax, K/V tiles in workgroup memory, the
// query heads of a KV head served together, the keys split across workgroups where the rows
// alone make too few of them, then merged by a second dispatch).
#pragma once

#include <cstdint>

#include "ops/op_rules.h"
#include "reference/llm_attention.h"

namespace refract::ops {

using reference::AttentionShape;

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

/// The decode kernel's configuration (llm_attention_decode.wgsl): one query position, the cache
/// split across workgroups.
struct AttentionDecodeConfig {
  uint32_t wg = 64;         ///< invocations a workgroup: the keys of a split at most
  uint32_t splits = 1;      ///< workgroups along the cache a KV head
  uint32_t subgroups = 0;   ///< 1: reductions through subgroup operations; 0: workgroup memory
  uint32_t merge_wg = 256;  ///< the merge's invocations a workgroup (a query head's)
  /// 1: the split's softmax statistics taken a subgroup at a time and combined in one hand-off
  /// (llm_attention_stats_subgroup_part; needs subgroups); 0: four workgroup reductions.
  uint32_t online = 0;
  /// 1: the split of llm_attention_decode_tile_part (its V slice in workgroup memory, a key's
  /// scores and a head's weighing spread over the invocations); 0: llm_attention_decode's (a key
  /// an invocation, every head).
  uint32_t v_tile = 0;
  uint32_t keys = 32;  ///< v_tile 1: the keys a split holds at most
  /// v_tile 1: 1 (its default), the split's K slice loaded coalesced into workgroup memory; 0,
  /// each scoring invocation loads its key's row from K. 0 with v_tile 0.
  uint32_t k_tile = 0;
  /// The merge: 0 llm_attention_decode's (lanes over the splits, two workgroup reductions);
  /// 1 llm_attention_decode_flat_merge_part's (an invocation a head's column combines every
  /// split; no reductions); 2 llm_attention_decode_subgroup_merge_part's (a subgroup a head's
  /// column, its lanes over the splits; no workgroup memory, no barrier).
  uint32_t merge = 0;
};

/// llm_attention_decode.wgsl's uniform, as its Params lays it out (32 bytes). The op makes one
/// for its shape at compile; a caller that owns one (a decode step, whose KV length grows each
/// token) binds its own through AttentionBuffers::params and rewrites it.
struct AttentionDecodeParams {
  uint32_t kv_len = 0, heads = 0, kv_heads = 0, position_offset = 0, causal = 0;
  uint32_t keys_per_split = 0;  ///< fixed by the configuration at compile: ceil(S / splits)
  uint32_t splits = 0;          ///< fixed by the configuration at compile
  float scale_log2 = 0;         ///< log2(e) / sqrt(head_dim)
};
static_assert(sizeof(AttentionDecodeParams) == 32);

/// The uniform of the decode op compiled for `shape` at `config`.
AttentionDecodeParams DecodeParamsFor(const AttentionShape& shape,
                                      const AttentionDecodeConfig& config);

/// Why `shape` cannot run on a device with `limits` whatever the kernel: T, S, heads or head_dim
/// of 0, heads not a multiple of kv_heads, q or k and v past the device's storage binding.
Refusal AttentionShapeRefusal(const AttentionShape& shape, const DeviceLimits& limits);

/// The splits `config` makes of the keys: ceil(S / split_keys), 1 without split_keys.
uint32_t AttentionSplits(const AttentionConfig& config, const AttentionShape& shape);

/// The rules: the seed's kernel is causal (a non-causal shape is refused); the tuned op's axes
/// are tr, tc, rq, rk, v_tiles and split_keys. Its default: for the path (decode = one query
/// position: 8 thread rows of 1 row, 16 columns of 4 keys; prefill: 16 of 4, 16 of 2) shrunk
/// until they fit the device's workgroup memory; without split_keys set, a shape whose row blocks
/// make fewer than 128 workgroups splits its keys into whole tiles until the grid reaches 128
/// (decode at S = 4096: 64 splits of 64 keys). head_dim a multiple of 4, at most 512.
extern const FamilyRules<AttentionShape, AttentionConfig> kAttentionRules;

/// The tuned decode kernel (T = 1, flash-decoding): wg, splits, subgroups, merge_wg, online,
/// v_tile, keys, merge. v_tile 0: each split at most wg keys, its default 64 invocations
/// (head_dim / 4 when more) and ceil(S / wg) splits. v_tile 1: each split at most `keys` keys,
/// wg at least keys and head slots · head_dim / 4 (head slots: the query heads a KV head rounded
/// up to a power of two; default the larger, rounded up to 32), ceil(S / keys) splits. Its merge
/// a second dispatch: the subgroup merge (merge 2) on a GPU with subgroups of one fixed size, a
/// subgroup a (query head, vec4 column), merge_wg / subgroup size of them a workgroup; else the
/// lanes' merge, a workgroup a query head, of head_dim / 4 · ceil(splits / 4) invocations (every
/// split's partial loaded in one step of four), 64 to 256, or at 4 splits or fewer the flat
/// merge. head_dim a multiple of 4 (at most 512, and 4 · wg, and 4 · merge_wg for merges 0 and
/// 1), at most 8 query heads a KV head.
extern const OpRules<AttentionShape, AttentionDecodeConfig> kAttentionDecodeRules;

}  // namespace refract::ops
