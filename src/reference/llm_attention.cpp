#include "reference/llm_attention.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "base/error.h"
#include "reference/compare.h"

namespace refract::reference {

void CheckAttentionShape(const AttentionShape& s) {
  REFRACT_THROW_IF(
      s.seq_len == 0 || s.kv_len == 0 || s.heads == 0 || s.kv_heads == 0 || s.head_dim == 0,
      UsageError, "attention needs T, S, heads, kv_heads and head_dim above 0");
  REFRACT_THROW_IF(s.heads % s.kv_heads != 0, UsageError,
                   "attention: " + std::to_string(s.heads) + " query heads are not a multiple of " +
                       std::to_string(s.kv_heads) + " key/value heads");
}

uint32_t VisibleKeys(const AttentionShape& shape, uint32_t t) {
  if (!shape.causal) return shape.kv_len;
  const uint64_t last = uint64_t{t} + shape.position_offset;  // the newest key it may see
  return static_cast<uint32_t>(std::min<uint64_t>(shape.kv_len, last + 1));
}

uint64_t VisiblePairs(const AttentionShape& shape) {
  uint64_t pairs = 0;
  for (uint32_t t = 0; t < shape.seq_len; ++t) pairs += VisibleKeys(shape, t);
  return pairs;
}

void AttentionRow(const AttentionShape& shape, std::span<const float> q, std::span<const float> k,
                  std::span<const float> v, uint32_t t, uint32_t h, std::span<float> out) {
  const size_t d = shape.head_dim;
  const size_t q_stride = size_t{shape.heads} * d;
  const size_t kv_stride = size_t{shape.kv_heads} * d;
  const size_t kv_head = h / shape.group();
  const float* q_row = q.data() + t * q_stride + h * d;
  const uint32_t keys = VisibleKeys(shape, t);
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));

  std::vector<double> scores(keys);
  double max_score = -INFINITY;
  for (uint32_t s = 0; s < keys; ++s) {
    const float* k_row = k.data() + s * kv_stride + kv_head * d;
    double dot = 0;
    for (size_t i = 0; i < d; ++i) dot += double{q_row[i]} * k_row[i];
    scores[s] = dot * scale;
    max_score = std::max(max_score, scores[s]);
  }
  std::vector<double> acc(d, 0.0);
  double sum = 0;
  for (uint32_t s = 0; s < keys; ++s) {
    const double weight = std::exp(scores[s] - max_score);
    sum += weight;
    const float* v_row = v.data() + s * kv_stride + kv_head * d;
    for (size_t i = 0; i < d; ++i) acc[i] += weight * v_row[i];
  }
  for (size_t i = 0; i < d; ++i) out[i] = keys == 0 ? 0.0f : static_cast<float>(acc[i] / sum);
}

std::vector<float> Attention(const AttentionShape& shape, std::span<const float> q,
                             std::span<const float> k, std::span<const float> v) {
  CheckAttentionShape(shape);
  const size_t d = shape.head_dim;
  std::vector<float> out(size_t{shape.seq_len} * shape.heads * d);
  for (uint32_t t = 0; t < shape.seq_len; ++t) {
    for (uint32_t h = 0; h < shape.heads; ++h) {
      AttentionRow(shape, q, k, v, t, h,
                   std::span<float>(out).subspan((size_t{t} * shape.heads + h) * d, d));
    }
  }
  return out;
}

Tolerance AttentionTolerance(std::span<const float> reference_output) {
  return {.absolute = kAttentionRelTolerance * MaxMagnitude(reference_output), .relative = 0};
}

}  // namespace refract::reference
