#include "reference/llm_q8.h"

#include <algorithm>
#include <cmath>

#include "base/error.h"
#include "reference/compare.h"

namespace refract::reference {
namespace {

uint32_t Blocks(size_t values) { return static_cast<uint32_t>((values + 31) / 32); }

// The byte of code i of a block in its eight words: even codes in the A words, odd in the B.
size_t PackedByte(size_t i) {
  const size_t group = i / 8, within = i % 8;
  return (2 * group + within % 2) * 4 + within / 2;
}

}  // namespace

Q8Activations QuantizeQ8(std::span<const float> x) {
  const uint32_t blocks = Blocks(x.size());
  Q8Activations q{.codes = std::vector<int8_t>(size_t{blocks} * kQ8BlockSize, 0),
                  .scales = std::vector<float>(blocks, 0.0f),
                  .sums = std::vector<float>(blocks, 0.0f)};
  for (uint32_t b = 0; b < blocks; ++b) {
    const size_t first = size_t{b} * kQ8BlockSize;
    const size_t end = std::min(x.size(), first + kQ8BlockSize);
    float amax = 0;
    for (size_t i = first; i < end; ++i) amax = std::max(amax, std::fabs(x[i]));
    const float d = amax / 127.0f;
    q.scales[b] = d;
    if (d == 0) continue;
    int sum = 0;
    for (size_t i = first; i < end; ++i) {
      const double code = std::clamp(std::nearbyint(double{x[i]} / d), -127.0, 127.0);
      q.codes[i] = static_cast<int8_t>(code);
      sum += q.codes[i];
    }
    q.sums[b] = static_cast<float>(sum);
  }
  return q;
}

std::vector<float> Q8RoundTrip(std::span<const float> x) {
  const Q8Activations q = QuantizeQ8(x);
  std::vector<float> values(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    values[i] = static_cast<float>(q.codes[i]) * q.scales[i / kQ8BlockSize];
  }
  return values;
}

std::vector<uint32_t> PackQ8Codes(std::span<const int8_t> codes) {
  REFRACT_THROW_IF(codes.size() % kQ8BlockSize != 0, Error, "q8 codes come in whole blocks");
  std::vector<uint32_t> words(codes.size() / 4, 0);
  for (size_t i = 0; i < codes.size(); ++i) {
    const size_t byte = (i / kQ8BlockSize) * kQ8BlockSize + PackedByte(i % kQ8BlockSize);
    words[byte / 4] |= uint32_t{static_cast<uint8_t>(codes[i])} << (8 * (byte % 4));
  }
  return words;
}

std::vector<int8_t> UnpackQ8Codes(std::span<const uint32_t> words) {
  std::vector<int8_t> codes(words.size() * 4);
  for (size_t i = 0; i < codes.size(); ++i) {
    const size_t byte = (i / kQ8BlockSize) * kQ8BlockSize + PackedByte(i % kQ8BlockSize);
    codes[i] = static_cast<int8_t>((words[byte / 4] >> (8 * (byte % 4))) & 0xFF);
  }
  return codes;
}

VerificationRecord CheckQ8Activations(const std::string& what, std::span<const uint32_t> words,
                                      std::span<const float> scale_sums, std::span<const float> x) {
  const Q8Activations model = QuantizeQ8(x);
  const size_t blocks = model.scales.size(), codes = model.codes.size();
  // Indices: the codes, then each block's scale, then its sum.
  Comparison comparison(what, Tolerance{}, [codes, blocks](size_t index) {
    if (index < codes) return "code " + std::to_string(index);
    const size_t block = (index - codes) % blocks;
    return std::string(index < codes + blocks ? "scale" : "sum") + " of block " +
           std::to_string(block);
  });
  if (words.size() != codes / 4 || scale_sums.size() != 2 * blocks) {
    comparison.Fail("the quantizer gave " + std::to_string(words.size()) + " words and " +
                    std::to_string(scale_sums.size()) + " scales and sums for " +
                    std::to_string(blocks) + " blocks");
    return comparison.Finish();
  }
  const std::vector<int8_t> gpu = UnpackQ8Codes(words);
  for (size_t b = 0; b < blocks; ++b) {
    const float d = model.scales[b];
    // A scale a few ulps from the model's (two f32 divisions on the GPU).
    comparison.Check(codes + b, scale_sums[2 * b], d, 4.0 * std::nextafter(d, INFINITY) - 4.0 * d);
    double gpu_sum = 0;
    for (size_t i = b * kQ8BlockSize; i < (b + 1) * kQ8BlockSize; ++i) {
      const double v = i < x.size() && d != 0 ? double{x[i]} / d : 0.0;
      const double from_tie = std::fabs(v - std::floor(v) - 0.5);
      const bool near_tie = from_tie <= kQ8TieWindow * std::max(1.0, std::fabs(v));
      comparison.Check(i, gpu[i], model.codes[i], near_tie ? 1.0 : 0.0);
      gpu_sum += gpu[i];
    }
    comparison.Check(codes + blocks + b, scale_sums[2 * b + 1], gpu_sum);
  }
  return comparison.Finish();
}

namespace {

/// GemvQ8's sum of its terms, or (`magnitudes`) of their absolute values.
std::vector<double> SumTerms(const Q4Matrix& w, const Q8Activations& x, bool magnitudes) {
  const uint32_t blocks = Q4Blocks(w.k);
  REFRACT_THROW_IF(x.scales.size() != blocks, Error, "q8 activations of another K");
  std::vector<double> y(w.n, 0.0);
  std::vector<int64_t> dots(w.n);
  for (uint32_t b = 0; b < blocks; ++b) {
    std::fill(dots.begin(), dots.end(), 0);
    for (uint32_t k = b * kQ8BlockSize; k < std::min(w.k, (b + 1) * kQ8BlockSize); ++k) {
      const int64_t q = x.codes[k];
      const uint8_t* codes = w.codes.data() + size_t{k} * w.n;
      for (uint32_t n = 0; n < w.n; ++n) dots[n] += q * codes[n];
    }
    const double d = x.scales[b], zero = double{kQ4ZeroPoint} * x.sums[b];
    for (uint32_t n = 0; n < w.n; ++n) {
      const double term =
          double{w.scales[size_t{n} * blocks + b]} * d * (static_cast<double>(dots[n]) - zero);
      y[n] += magnitudes ? std::fabs(term) : term;
    }
  }
  return y;
}

}  // namespace

std::vector<double> GemvQ8(const Q4Matrix& w, const Q8Activations& x) {
  return SumTerms(w, x, false);
}

std::vector<double> GemvQ8Magnitudes(const Q4Matrix& w, const Q8Activations& x) {
  return SumTerms(w, x, true);
}

}  // namespace refract::reference
