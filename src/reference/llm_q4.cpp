#include "reference/llm_q4.h"

#include "base/error.h"
#include "reference/random_data.h"

namespace refract::reference {
namespace {

// Union-find over the (n, K block) scale cells, with path halving.
class CellSets {
 public:
  explicit CellSets(size_t count) : parent_(count) {
    for (size_t i = 0; i < count; ++i) parent_[i] = i;
  }
  size_t Find(size_t cell) {
    while (parent_[cell] != cell) cell = parent_[cell] = parent_[parent_[cell]];
    return cell;
  }
  void Join(size_t a, size_t b) { parent_[Find(a)] = Find(b); }

 private:
  std::vector<size_t> parent_;
};

float Dequantize(uint32_t code, float zero, float scale) {
  return (static_cast<float>(code) - zero) * scale;
}

}  // namespace

float Q4Matrix::Value(uint32_t row, uint32_t col) const {
  return Dequantize(codes[size_t{row} * n + col], float{kQ4ZeroPoint},
                    scales[size_t{col} * Q4Blocks(k) + row / kQ4BlockSize]);
}

Q4Matrix RandomQ4Matrix(uint32_t k, uint32_t n, uint64_t seed) {
  REFRACT_THROW_IF(k == 0 || n == 0, Error, "RandomQ4Matrix: empty matrix");
  Q4Matrix matrix{.k = k, .n = n, .codes = {}, .scales = {}};
  RandomStream stream(seed);
  matrix.codes.resize(size_t{k} * n);
  for (size_t i = 0; i < matrix.codes.size(); i += 16) {  // 16 codes from each 64-bit draw
    const uint64_t bits = stream.NextU64();
    for (size_t j = 0; j < 16 && i + j < matrix.codes.size(); ++j) {
      matrix.codes[i + j] = static_cast<uint8_t>((bits >> (4 * j)) & 15u);
    }
  }
  const uint32_t blocks = Q4Blocks(k);
  matrix.scales.resize(size_t{n} * blocks);
  auto draw = [&] { return stream.NextFloat(0.01f, 0.03f); };
  if (n % kSeedGroupSize == 0) {
    // Each seed group is 32 consecutive n of one k: one scale per (K block, n / 32).
    const uint32_t tiles = n / kSeedGroupSize;
    std::vector<float> tile_scales(size_t{blocks} * tiles);
    for (float& scale : tile_scales) scale = draw();
    for (uint32_t col = 0; col < n; ++col) {
      for (uint32_t block = 0; block < blocks; ++block) {
        matrix.scales[size_t{col} * blocks + block] =
            tile_scales[size_t{block} * tiles + col / kSeedGroupSize];
      }
    }
    return matrix;
  }
  // Groups wrap around rows: join every cell a group touches, then draw one scale per set.
  CellSets sets(matrix.scales.size());
  auto cell_of = [&](size_t flat) { return (flat % n) * blocks + (flat / n) / kQ4BlockSize; };
  for (size_t flat = 0; flat < matrix.codes.size(); ++flat) {
    sets.Join(cell_of(flat), cell_of(flat - flat % kSeedGroupSize));
  }
  std::vector<float> set_scale(matrix.scales.size(), 0.0f);
  for (size_t cell = 0; cell < matrix.scales.size(); ++cell) {
    float& scale = set_scale[sets.Find(cell)];
    if (scale == 0.0f) scale = draw();
    matrix.scales[cell] = scale;
  }
  return matrix;
}

SeedInt4Packing PackSeedInt4(const Q4Matrix& matrix, uint32_t group_size) {
  REFRACT_THROW_IF(group_size == 0, Error, "PackSeedInt4: group_size 0");
  const size_t count = matrix.codes.size();
  const size_t groups = (count + group_size - 1) / group_size;
  SeedInt4Packing packing{.packed = std::vector<uint32_t>((count + 7) / 8, 0u),
                          .scales = std::vector<float>(groups, 0.0f),
                          .zeros = std::vector<float>(groups, float{kQ4ZeroPoint})};
  const uint32_t blocks = Q4Blocks(matrix.k);
  for (size_t flat = 0; flat < count; ++flat) {
    packing.packed[flat / 8] |= uint32_t{matrix.codes[flat]} << (4 * (flat % 8));
    const float scale =
        matrix.scales[(flat % matrix.n) * blocks + (flat / matrix.n) / kQ4BlockSize];
    float& group_scale = packing.scales[flat / group_size];
    REFRACT_THROW_IF(flat % group_size != 0 && group_scale != scale, Error,
                     "PackSeedInt4: group " + std::to_string(flat / group_size) +
                         " spans elements of different scales");
    group_scale = scale;
  }
  return packing;
}

uint32_t SeedInt4Code(const SeedInt4Packing& packing, uint32_t n, uint32_t row, uint32_t col) {
  const size_t flat = size_t{row} * n + col;
  return (packing.packed[flat / 8] >> (4 * (flat % 8))) & 15u;
}

std::vector<float> DequantizeSeedInt4(const SeedInt4Packing& packing, uint32_t k, uint32_t n,
                                      uint32_t group_size) {
  std::vector<float> w(size_t{n} * k);
  for (uint32_t row = 0; row < k; ++row) {
    for (uint32_t col = 0; col < n; ++col) {
      const size_t group = (size_t{row} * n + col) / group_size;
      w[size_t{col} * k + row] = Dequantize(SeedInt4Code(packing, n, row, col),
                                            packing.zeros[group], packing.scales[group]);
    }
  }
  return w;
}

MatMulNBitsPacking PackMatMulNBits(const Q4Matrix& matrix) {
  const uint32_t blocks = Q4Blocks(matrix.k);
  MatMulNBitsPacking packing{
      .b = std::vector<uint8_t>(size_t{matrix.n} * blocks * (kQ4BlockSize / 2), 0),
      .scales = matrix.scales};
  for (uint32_t row = 0; row < matrix.k; ++row) {
    for (uint32_t col = 0; col < matrix.n; ++col) {
      const size_t byte = (size_t{col} * blocks + row / kQ4BlockSize) * (kQ4BlockSize / 2) +
                          (row % kQ4BlockSize) / 2;
      packing.b[byte] |=
          static_cast<uint8_t>(matrix.codes[size_t{row} * matrix.n + col] << (4 * (row % 2)));
    }
  }
  return packing;
}

uint32_t MatMulNBitsCode(const MatMulNBitsPacking& packing, uint32_t k, uint32_t row,
                         uint32_t col) {
  const size_t byte = (size_t{col} * Q4Blocks(k) + row / kQ4BlockSize) * (kQ4BlockSize / 2) +
                      (row % kQ4BlockSize) / 2;
  return (packing.b[byte] >> (4 * (row % 2))) & 15u;
}

std::vector<float> DequantizeMatMulNBits(const MatMulNBitsPacking& packing, uint32_t k,
                                         uint32_t n) {
  const uint32_t blocks = Q4Blocks(k);
  std::vector<float> w(size_t{n} * k);
  for (uint32_t col = 0; col < n; ++col) {
    for (uint32_t row = 0; row < k; ++row) {
      w[size_t{col} * k + row] =
          Dequantize(MatMulNBitsCode(packing, k, row, col), float{kQ4ZeroPoint},
                     packing.scales[size_t{col} * blocks + row / kQ4BlockSize]);
    }
  }
  return w;
}

}  // namespace refract::reference
