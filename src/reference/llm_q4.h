// The 4-bit weight matrices of the q4 matmul rows: one logical matrix (codes and scales) and the
// two layouts it is packed into — seed 003's own int4 layout (the baseline kernel's) and ONNX
// Runtime's MatMulNBits layout (KERNELS.md; the tuned kernels') — with their dequantizers, each
// written from its layout's specification. C = A · B with B [K, N] the dequantized matrix; the
// product itself is reference/llm_matmul.h's.
#pragma once

#include <cstdint>
#include <vector>

namespace refract::reference {

/// Values of one MatMulNBits block: the suite's block_size (KERNELS.md: 32 unless an issue says
/// otherwise); 16 bytes, one vec4<u32>.
inline constexpr uint32_t kQ4BlockSize = 32;
/// Values of one group of seed 003's layout: the suite's group_size.
inline constexpr uint32_t kSeedGroupSize = 32;
/// The zero point of every value: MatMulNBits without zero points uses 8; the seed layout's f32
/// zeros are all 8 so that both layouts encode the same matrix.
inline constexpr uint32_t kQ4ZeroPoint = 8;

/// K blocks of MatMulNBits: ceil(K / 32).
inline uint32_t Q4Blocks(uint32_t k) { return (k + kQ4BlockSize - 1) / kQ4BlockSize; }

/// The logical quantized matrix: B[k][n] = (codes[k·N + n] − 8) × scales[n·KB + k / 32].
struct Q4Matrix {
  uint32_t k = 0;
  uint32_t n = 0;
  std::vector<uint8_t> codes;  ///< [K, N], each in [0, 16)
  std::vector<float> scales;   ///< [N, KB], KB = Q4Blocks(K)

  /// B[row][col] as f32: (code − 8) × scale, rounded once.
  float Value(uint32_t row, uint32_t col) const;
};

/// Random codes, and scales in [0.01, 0.03) drawn from `seed`. The scales are equal wherever one
/// seed-layout group (32 consecutive elements of the flat [K, N] order) spans several (n, K block)
/// cells, so that PackSeedInt4 can represent the matrix exactly: with N a multiple of 32 that
/// makes them constant over 32 consecutive n of one K block; other N join more cells.
Q4Matrix RandomQ4Matrix(uint32_t k, uint32_t n, uint64_t seed);

/// Seed 003's int4 layout (§3 "INT4 Packing", "Dequantization"): the flat index of B[k][n] is
/// f = k·N + n; its code is nibble f % 8 (bits 4·(f % 8)) of word f / 8; its group is
/// g = f / group_size; value = (nibble − zeros[g]) × scales[g].
struct SeedInt4Packing {
  std::vector<uint32_t> packed;  ///< ceil(K·N / 8) words (unused nibbles of the last are 0)
  std::vector<float> scales;     ///< ceil(K·N / group_size)
  std::vector<float> zeros;      ///< ceil(K·N / group_size), all 8.0
};

/// Packs `matrix` into the seed layout; throws Error when a group would need two scales.
SeedInt4Packing PackSeedInt4(const Q4Matrix& matrix, uint32_t group_size = kSeedGroupSize);
/// The code of B[row][col] in the seed layout.
uint32_t SeedInt4Code(const SeedInt4Packing& packing, uint32_t n, uint32_t row, uint32_t col);
/// The dequantized matrix as the seed defines it, transposed to W [N, K] (the layout
/// MatmulOutputs takes).
std::vector<float> DequantizeSeedInt4(const SeedInt4Packing& packing, uint32_t k, uint32_t n,
                                      uint32_t group_size = kSeedGroupSize);

/// ONNX Runtime's MatMulNBits layout with bits 4, block_size 32 and no zero points (KERNELS.md):
/// B[k][n] lives in row n, block k / 32, byte (k % 32) / 2 of that block's 16, in the low nibble
/// for even k and the high nibble for odd k; value = (code − 8) × scales[n·KB + k / 32].
struct MatMulNBitsPacking {
  std::vector<uint8_t> b;     ///< [N, KB, 16] bytes; a partial last block's unused codes are 0
  std::vector<float> scales;  ///< [N, KB]
};

MatMulNBitsPacking PackMatMulNBits(const Q4Matrix& matrix);
/// The code of B[row][col] in the MatMulNBits layout (K is the matrix's).
uint32_t MatMulNBitsCode(const MatMulNBitsPacking& packing, uint32_t k, uint32_t row, uint32_t col);
/// The dequantized matrix as MatMulNBits defines it, as W [N, K].
std::vector<float> DequantizeMatMulNBits(const MatMulNBitsPacking& packing, uint32_t k, uint32_t n);

}  // namespace refract::reference
