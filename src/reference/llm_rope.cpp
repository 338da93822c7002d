#include "reference/llm_rope.h"

#include <cmath>

#include "reference/compare.h"

namespace refract::reference {
namespace {

// Rotates the pairs of `heads` heads of one row in place.
void RotateRow(std::span<float> row, uint32_t heads, uint32_t head_dim, double pos, double base) {
  for (uint32_t h = 0; h < heads; ++h) {
    for (uint32_t i = 0; i < head_dim / 2; ++i) {
      const double theta = pos * std::pow(base, -2.0 * i / head_dim);
      float& x0 = row[size_t{h} * head_dim + 2 * i];
      float& x1 = row[size_t{h} * head_dim + 2 * i + 1];
      const double a = x0, b = x1;
      x0 = static_cast<float>(a * std::cos(theta) - b * std::sin(theta));
      x1 = static_cast<float>(a * std::sin(theta) + b * std::cos(theta));
    }
  }
}

}  // namespace

void Rope(const RopeShape& shape, std::span<float> q, std::span<float> k) {
  const size_t q_width = size_t{shape.heads} * shape.head_dim;
  const size_t k_width = size_t{shape.kv_heads} * shape.head_dim;
  for (uint32_t t = 0; t < shape.seq_len; ++t) {
    const double pos = static_cast<double>(t) + shape.position_offset;
    RotateRow(q.subspan(t * q_width, q_width), shape.heads, shape.head_dim, pos, shape.base);
    RotateRow(k.subspan(t * k_width, k_width), shape.kv_heads, shape.head_dim, pos, shape.base);
  }
}

Tolerance RopeTolerance(const RopeShape& shape, std::span<const float> reference_output) {
  const double max_angle =
      static_cast<double>(shape.seq_len) - 1 + shape.position_offset;  // i = 0: θ = pos
  return {.absolute = MaxMagnitude(reference_output) *
                      (kRopeBaseTolerance + kRopePerRadianTolerance * max_angle),
          .relative = 0};
}

}  // namespace refract::reference
