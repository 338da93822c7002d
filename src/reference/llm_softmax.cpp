#include "reference/llm_softmax.h"

#include <algorithm>
#include <cmath>

#include "reference/compare.h"

namespace refract::reference {

std::vector<float> Softmax(std::span<const float> x, uint32_t rows, uint32_t row_size) {
  std::vector<float> out(size_t{rows} * row_size);
  std::vector<double> e(row_size);
  for (size_t r = 0; r < rows; ++r) {
    const float* row = x.data() + r * row_size;
    double max_value = -INFINITY;
    for (uint32_t i = 0; i < row_size; ++i) max_value = std::max(max_value, double{row[i]});
    double sum = 0;
    for (uint32_t i = 0; i < row_size; ++i) sum += e[i] = std::exp(row[i] - max_value);
    for (uint32_t i = 0; i < row_size; ++i) out[r * row_size + i] = static_cast<float>(e[i] / sum);
  }
  return out;
}

Tolerance SoftmaxTolerance(std::span<const float> reference_output) {
  return {.absolute = kSoftmaxFlushTolerance * MaxMagnitude(reference_output),
          .relative = kSoftmaxRelTolerance};
}

}  // namespace refract::reference
