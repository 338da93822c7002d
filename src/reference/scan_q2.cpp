#include "reference/scan_q2.h"

#include "base/error.h"
#include "reference/random_data.h"

namespace refract::reference {

Q2Corpus RandomQ2Corpus(uint32_t vectors, uint32_t d, uint64_t seed) {
  REFRACT_THROW_IF(d == 0 || d % 16 != 0, Error,
                   "the 2-bit scan needs d a positive multiple of 16, not " + std::to_string(d));
  Q2Corpus corpus{.vectors = vectors, .d = d};
  RandomStream codes(seed);
  corpus.codes.resize(size_t{vectors} * d / 16);
  for (uint32_t& word : corpus.codes) word = static_cast<uint32_t>(codes.NextU64());
  corpus.norms = RandomFloats(vectors, seed + 1, 0.5f, 1.5f);
  corpus.lut = RandomFloats(size_t{kScanQueries} * d * 4, seed + 2);
  return corpus;
}

uint32_t Q2Code(const Q2Corpus& corpus, uint32_t v, uint32_t j) {
  const uint32_t word = corpus.codes[size_t{v} * (corpus.d / 16) + j / 16];
  const uint32_t byte = (word >> (8 * ((j / 4) % 4))) & 0xffu;
  return (byte >> (6 - 2 * (j % 4))) & 3u;
}

std::vector<double> Q2Scores(const Q2Corpus& corpus) {
  const uint32_t d = corpus.d;
  std::vector<double> scores(size_t{corpus.vectors} * kScanQueries);
  std::vector<uint32_t> entry(d);
  for (uint32_t v = 0; v < corpus.vectors; ++v) {
    for (uint32_t j = 0; j < d; ++j) entry[j] = j * 4 + Q2Code(corpus, v, j);
    for (uint32_t q = 0; q < kScanQueries; ++q) {
      const float* table = corpus.lut.data() + size_t{q} * d * 4;
      double sum = 0;
      for (uint32_t j = 0; j < d; ++j) sum += table[entry[j]];
      scores[size_t{v} * kScanQueries + q] = corpus.norms[v] * sum;
    }
  }
  return scores;
}

Tolerance Q2Tolerance(uint32_t d) {
  // d f32 additions of partial sums near sqrt(d) round off about sqrt(d) × 2^-24 × sqrt(d)
  // (5e-5 at d = 768); d × 2e-6 (1.5e-3) is 30 times that and far below one wrong table entry
  // (up to 2 apart).
  return {.absolute = 2e-6 * d, .relative = 1e-5};
}

}  // namespace refract::reference
