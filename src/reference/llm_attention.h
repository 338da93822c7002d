// CPU model of scaled dot-product attention with a causal mask and grouped-query heads (seed 003
// §7), in double precision: the reference both attention kernels are verified against.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/verification.h"

namespace refract::reference {

/// The problem of one attention invocation. Q is [T, heads·d], K and V are [S, kv_heads·d] and
/// the output is [T, heads·d], all row-major f32.
struct AttentionShape {
  uint32_t seq_len = 1;          ///< T: query positions
  uint32_t kv_len = 1;           ///< S: key/value positions, the cache included
  uint32_t heads = 1;            ///< query heads
  uint32_t kv_heads = 1;         ///< key/value heads; heads is a multiple of it (GQA)
  uint32_t head_dim = 1;         ///< d
  uint32_t position_offset = 0;  ///< absolute position of query 0 (decode: S − 1)
  bool causal = true;            ///< query t sees key s only when s ≤ t + position_offset

  /// Query heads that share one key/value head.
  uint32_t group() const { return heads / kv_heads; }
};

/// Throws UsageError unless the shape is usable (positive sizes, heads a multiple of kv_heads).
void CheckAttentionShape(const AttentionShape& shape);

/// Keys query t sees: min(S, t + position_offset + 1) when causal, else S.
uint32_t VisibleKeys(const AttentionShape& shape, uint32_t t);

/// (query, key) pairs that are not masked, for one head: Σ_t VisibleKeys(t).
uint64_t VisiblePairs(const AttentionShape& shape);

/// One output row: out[i] = Σ_s softmax_s(q·k_s / √d) · v_s[i] over the keys query t sees, for
/// query head h reading key/value head h / (heads / kv_heads). `out` holds head_dim values.
void AttentionRow(const AttentionShape& shape, std::span<const float> q, std::span<const float> k,
                  std::span<const float> v, uint32_t t, uint32_t h, std::span<float> out);

/// Every output row: [T, heads·d].
std::vector<float> Attention(const AttentionShape& shape, std::span<const float> q,
                             std::span<const float> k, std::span<const float> v);

/// Outputs are convex combinations of V rows. The GPU's f32 logits carry an absolute error of a
/// few ulp of Σ|q_i k_i| (≤ ~1e-5 at logits of 100), which moves the weights by that relative
/// amount, and its f32 sums over up to thousands of keys add ~1e-5 more: 2e-4 of the output's
/// largest magnitude bounds both with margin, while a dropped key, tile or mask moves outputs by
/// percents.
inline constexpr double kAttentionRelTolerance = 2e-4;

/// absolute = kAttentionRelTolerance × MaxMagnitude(reference output).
Tolerance AttentionTolerance(std::span<const float> reference_output);

}  // namespace refract::reference
