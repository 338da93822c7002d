#include "reference/llm_add_mul.h"

#include "base/error.h"

namespace refract::reference {
namespace {

template <typename Op>
std::vector<float> Apply(std::span<const float> a, std::span<const float> b, Op op) {
  REFRACT_THROW_IF(a.size() != b.size(), Error, "element-wise inputs differ in size");
  std::vector<float> out(a.size());
  for (size_t i = 0; i < a.size(); ++i) out[i] = op(a[i], b[i]);
  return out;
}

}  // namespace

std::vector<float> Add(std::span<const float> a, std::span<const float> b) {
  return Apply(a, b, [](float x, float y) { return x + y; });
}

std::vector<float> Mul(std::span<const float> a, std::span<const float> b) {
  return Apply(a, b, [](float x, float y) { return x * y; });
}

}  // namespace refract::reference
