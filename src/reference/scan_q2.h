// The 2-bit corpus scan's data and its CPU model (docs/KERNELS.md "2-bit corpus scan"): vectors
// of d 2-bit codes and a norm, 8 queries' lookup tables, and every vector's 8 scores.
#pragma once

#include <cstdint>
#include <vector>

#include "base/verification.h"

namespace refract::reference {

inline constexpr uint32_t kScanQueries = 8;

struct Q2Corpus {
  uint32_t vectors = 0;
  uint32_t d = 0;               ///< codes a vector, a multiple of 16
  std::vector<uint32_t> codes;  ///< vectors × d / 16 words: 4 codes a byte, the first code in
                                ///< the byte's high bits, bytes little endian in a word
  std::vector<float> norms;     ///< vectors
  std::vector<float> lut;       ///< [query][j][code]: 8 × d × 4
};

/// Deterministic codes, norms in [0.5, 1.5) and table entries in [-1, 1) for `seed`; throws
/// Error unless d is a positive multiple of 16.
Q2Corpus RandomQ2Corpus(uint32_t vectors, uint32_t d, uint64_t seed);

/// Code j (0..3) of vector v.
uint32_t Q2Code(const Q2Corpus& corpus, uint32_t v, uint32_t j);

/// scores[v × 8 + q] = norm[v] × Σ_j lut[q][j][code_j(v)], in double.
std::vector<double> Q2Scores(const Q2Corpus& corpus);

/// The scan's tolerance: f32 sums of d table entries (|entry| < 1) times a norm below 1.5.
Tolerance Q2Tolerance(uint32_t d);

}  // namespace refract::reference
