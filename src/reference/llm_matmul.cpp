#include "reference/llm_matmul.h"

#include <algorithm>

#include "base/error.h"
#include "reference/random_data.h"

namespace refract::reference {

Tolerance MatmulTolerance(double max_magnitude) {
  return Tolerance{.absolute = kMatmulRelativeTolerance * max_magnitude, .relative = 0};
}

std::vector<float> MatmulF32(std::span<const float> a, std::span<const float> b, uint32_t m,
                             uint32_t k, uint32_t n) {
  REFRACT_THROW_IF(a.size() != size_t{m} * k || b.size() != size_t{k} * n, Error,
                   "MatmulF32: A or B has the wrong size");
  std::vector<float> c(size_t{m} * n);
  std::vector<double> row(n);
  for (uint32_t i = 0; i < m; ++i) {
    std::fill(row.begin(), row.end(), 0.0);
    for (uint32_t p = 0; p < k; ++p) {
      const double a_ip = a[size_t{i} * k + p];
      const float* b_row = b.data() + size_t{p} * n;
      for (uint32_t j = 0; j < n; ++j) row[j] += a_ip * b_row[j];
    }
    for (uint32_t j = 0; j < n; ++j) c[size_t{i} * n + j] = static_cast<float>(row[j]);
  }
  return c;
}

std::vector<double> MatmulOutputs(std::span<const float> a, std::span<const float> w, uint32_t k,
                                  uint32_t n, std::span<const size_t> indices) {
  REFRACT_THROW_IF(w.size() != size_t{n} * k || a.size() % std::max(k, 1u) != 0, Error,
                   "MatmulOutputs: A or W has the wrong size");
  std::vector<double> out;
  out.reserve(indices.size());
  for (size_t index : indices) {
    const float* a_row = a.data() + (index / n) * k;
    const float* w_row = w.data() + (index % n) * k;
    double sum = 0;
    for (uint32_t p = 0; p < k; ++p) sum += double{a_row[p]} * w_row[p];
    out.push_back(sum);
  }
  return out;
}

std::vector<size_t> MatmulCheckIndices(uint32_t m, uint32_t n, uint32_t k, uint64_t seed) {
  std::vector<size_t> indices;
  if (uint64_t{m} * n * k <= kFullCheckMacs) {
    indices.resize(size_t{m} * n);
    for (size_t i = 0; i < indices.size(); ++i) indices[i] = i;
    return indices;
  }
  constexpr uint32_t kGrid = 32;
  RandomStream stream(seed);
  std::vector<uint32_t> rows = {0, m / 2, m - 1};
  std::vector<uint32_t> cols = {0, n / 2, n - 1};
  for (uint32_t r : rows) {
    for (uint32_t j = 0; j < n; ++j) indices.push_back(size_t{r} * n + j);
  }
  for (uint32_t c : cols) {
    for (uint32_t i = 0; i < m; ++i) indices.push_back(size_t{i} * n + c);
  }
  std::vector<uint32_t> grid_rows(kGrid), grid_cols(kGrid);
  for (uint32_t& r : grid_rows) r = stream.NextBelow(m);
  for (uint32_t& c : grid_cols) c = stream.NextBelow(n);
  for (uint32_t r : grid_rows) {
    for (uint32_t c : grid_cols) indices.push_back(size_t{r} * n + c);
  }
  std::sort(indices.begin(), indices.end());
  indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
  return indices;
}

std::string MatmulIndexName(size_t index, uint32_t n) {
  return "row " + std::to_string(index / n) + ", col " + std::to_string(index % n);
}

std::vector<float> Transpose(std::span<const float> values, uint32_t rows, uint32_t cols) {
  REFRACT_THROW_IF(values.size() != size_t{rows} * cols, Error, "Transpose: wrong size");
  std::vector<float> out(values.size());
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) out[size_t{c} * rows + r] = values[size_t{r} * cols + c];
  }
  return out;
}

std::vector<float> PadRows(std::span<const float> values, uint32_t rows, uint32_t cols,
                           uint32_t stride) {
  REFRACT_THROW_IF(values.size() != size_t{rows} * cols || stride < cols, Error,
                   "PadRows: wrong size or stride");
  std::vector<float> out(size_t{rows} * stride, 0.0f);
  for (uint32_t r = 0; r < rows; ++r) {
    std::copy_n(values.data() + size_t{r} * cols, cols, out.data() + size_t{r} * stride);
  }
  return out;
}

}  // namespace refract::reference
