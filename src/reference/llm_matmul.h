// CPU model of the LLM matmuls (seed 003 §2, §3): C[M, N] = A[M, K] · B[K, N], accumulated in
// double and rounded to f32 once; the layout helpers the tuned kernels' inputs are built with;
// and the deterministic sample of outputs a large product is verified on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/verification.h"

namespace refract::reference {

/// A GPU matmul accumulates K products in f32 in its own order; the error of such a sum stays
/// well under 1e-5 × the output's magnitude for K ≤ 16k with the suite's [-1, 1) data, so 1e-4
/// leaves margin while a dropped K tile or N tile (an error of order the output itself) fails.
inline constexpr double kMatmulRelativeTolerance = 1e-4;

/// |gpu − cpu| ≤ kMatmulRelativeTolerance × `max_magnitude` (the largest |value| of the
/// reference outputs checked; all rows of the suite's products have the same scale).
Tolerance MatmulTolerance(double max_magnitude);

/// C = A · B, all dense row-major: A [M, K], B [K, N] → C [M, N] (f32, each a double sum).
std::vector<float> MatmulF32(std::span<const float> a, std::span<const float> b, uint32_t m,
                             uint32_t k, uint32_t n);

/// The outputs C[i / N][i % N] for each flat index i of `indices`, with B given transposed:
/// `w` is [N, K] (row n = column n of B, the LLM weight layout). Each a double sum.
std::vector<double> MatmulOutputs(std::span<const float> a, std::span<const float> w, uint32_t k,
                                  uint32_t n, std::span<const size_t> indices);

/// Problems up to this many multiply-adds are verified on every output.
inline constexpr uint64_t kFullCheckMacs = uint64_t{1} << 28;

/// Flat indices (m × N + n, ascending, distinct) of the outputs a verification checks: every
/// output when M·N·K ≤ kFullCheckMacs; otherwise the whole rows 0, M/2 and M − 1, the whole
/// columns 0, N/2 and N − 1, and a grid of 32 random rows × 32 random columns (~1000 scattered
/// outputs) drawn from `seed`.
std::vector<size_t> MatmulCheckIndices(uint32_t m, uint32_t n, uint32_t k, uint64_t seed);

/// "row 3, col 17" for flat index 3 × N + 17.
std::string MatmulIndexName(size_t index, uint32_t n);

/// B [rows, cols] → Bᵀ [cols, rows].
std::vector<float> Transpose(std::span<const float> values, uint32_t rows, uint32_t cols);

/// `values` [rows, cols] with each row padded with zeros to `stride` ≥ cols elements.
std::vector<float> PadRows(std::span<const float> values, uint32_t rows, uint32_t cols,
                           uint32_t stride);

/// `count` rounded up to a multiple of 4 (the row stride of vec4-read f32 rows) [elements].
inline uint32_t RoundUpTo4(uint32_t count) { return (count + 3u) & ~3u; }

}  // namespace refract::reference
