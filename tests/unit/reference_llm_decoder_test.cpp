// The CPU decoder refract decode verifies against: its pieces checked by other means than its
// own code (a dequantized row's dot, Llama 3's RoPE rescaling by its bands, argmax's ties).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>

#include "base/error.h"
#include "reference/llm_decoder.h"
#include "reference/random_data.h"

namespace refract::reference {
namespace {

DecoderShape Tiny() {
  return {.name = "tiny",
          .family = "qwen2",
          .hidden = 64,
          .layers = 2,
          .heads = 4,
          .kv_heads = 2,
          .head_dim = 16,
          .intermediate = 96,
          .vocab = 50,
          .rope_theta = 10000,
          .rms_eps = 1e-6,
          .tied_embeddings = true,
          .attention_bias = true};
}

TEST(ReferenceLlmDecoder, GemvIsEachDequantizedRowDotted) {
  const DecoderWeights w = SyntheticDecoderWeights(Tiny(), 1);
  const Q4Weight& m = w.layers[0].gate_up;
  const std::vector<float> x = RandomFloats(m.k, 2);
  const std::vector<float> y = Q4Gemv(m, x);
  std::vector<float> row(m.k);
  for (uint32_t n = 0; n < m.n; ++n) {
    m.DequantizeRow(n, row);
    double dot = 0;
    for (uint32_t i = 0; i < m.k; ++i) dot += double{row[i]} * x[i];
    EXPECT_NEAR(y[n], dot, 1e-5 * (1 + std::abs(dot))) << "row " << n;
  }
}

TEST(ReferenceLlmDecoder, RowsKeepTheScaleOfTheirInputs) {
  // Synthetic weights are drawn so that y = W x keeps x's spread (about 1 / sqrt(K) a weight).
  const DecoderWeights w = SyntheticDecoderWeights(Tiny(), 3);
  const std::vector<float> x = RandomFloats(64, 4, -1.7f, 1.7f);  // spread ~1
  const std::vector<float> y = Q4Gemv(w.layers[0].qkv, x);
  double sum = 0;
  for (float v : y) sum += double{v} * v;
  const double rms = std::sqrt(sum / static_cast<double>(y.size()));
  EXPECT_GT(rms, 0.3);
  EXPECT_LT(rms, 3.0);
}

TEST(ReferenceLlmDecoder, Llama3ScalingDividesLowFrequenciesKeepsHighOnes) {
  DecoderShape shape = Tiny();
  shape.head_dim = 64;
  shape.rope_theta = 500000;
  const std::vector<double> plain = DecoderInverseFrequencies(shape);
  shape.rope_scaling = Llama3RopeScaling{
      .factor = 32, .low_freq_factor = 1, .high_freq_factor = 4, .original_max_position = 8192};
  const std::vector<double> scaled = DecoderInverseFrequencies(shape);
  ASSERT_EQ(plain.size(), 32u);
  for (size_t i = 0; i < plain.size(); ++i) {
    const double wavelength = 2 * std::numbers::pi / plain[i];
    if (wavelength < 8192.0 / 4) {
      EXPECT_DOUBLE_EQ(scaled[i], plain[i]) << i;  // high frequencies kept
    } else if (wavelength > 8192.0 / 1) {
      EXPECT_DOUBLE_EQ(scaled[i], plain[i] / 32) << i;  // low frequencies divided by factor
    } else {
      EXPECT_LT(scaled[i], plain[i]) << i;  // blended between the two
      EXPECT_GT(scaled[i], plain[i] / 32) << i;
    }
  }
  EXPECT_DOUBLE_EQ(plain[0], 1.0);
  EXPECT_NEAR(plain[1], std::pow(500000.0, -2.0 / 64), 1e-15);
}

TEST(ReferenceLlmDecoder, ArgmaxTakesTheFirstLargestAndNeverNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(Argmax(std::vector<float>{1, 3, 3, 2}), 1u);
  EXPECT_EQ(Argmax(std::vector<float>{nan, -5, -1, nan}), 2u);
  EXPECT_EQ(Argmax(std::vector<float>{-1}), 0u);
}

TEST(ReferenceLlmDecoder, AShorterHistoryIsAPrefixOfALongerOne) {
  const LayerHistory longer = SyntheticHistory(Tiny(), 1, 10, 7);
  const LayerHistory shorter = SyntheticHistory(Tiny(), 1, 4, 7);
  ASSERT_EQ(shorter.k.size(), 4u * 32);
  for (size_t i = 0; i < shorter.k.size(); ++i) {
    EXPECT_EQ(shorter.k[i], longer.k[i]);
    EXPECT_EQ(shorter.v[i], longer.v[i]);
  }
  EXPECT_NE(SyntheticHistory(Tiny(), 0, 4, 7).k, shorter.k);  // each layer its own
}

TEST(ReferenceLlmDecoder, StepsAppendAtTheirPositionAndStopAtTheCapacity) {
  const DecoderShape shape = Tiny();
  const DecoderWeights w = SyntheticDecoderWeights(shape, 5);
  DecoderModel model(shape, w, 5);
  std::vector<LayerHistory> history;
  for (uint32_t l = 0; l < shape.layers; ++l) history.push_back(SyntheticHistory(shape, l, 3, 9));
  model.SetHistory(history, 3);
  const std::vector<float> first = model.Step(7);
  EXPECT_EQ(model.position(), 4u);
  EXPECT_EQ(first.size(), shape.vocab);
  // Position 3 of every layer now holds the step's key row, not zeros.
  double magnitude = 0;
  for (uint32_t i = 0; i < shape.KvRows(); ++i)
    magnitude += std::abs(model.Keys(0)[3 * shape.KvRows() + i]);
  EXPECT_GT(magnitude, 0);
  const std::vector<float> second = model.Step(7);  // the same token one position on
  EXPECT_NE(first, second);
  EXPECT_THROW(model.Step(7), UsageError);  // the cache of 5 is full
  EXPECT_THROW(DecoderModel(shape, w, 5).Step(shape.vocab), UsageError);
}

TEST(ReferenceLlmDecoder, Q8ActivationsMoveTheLogitsByTheirQuantizationOnly) {
  // The same steps with the projections' inputs quantized: close to f32's (within 5 % of the
  // largest logit) but not equal; with only the LM head's input quantized, between the two.
  const DecoderShape shape = Tiny();
  const DecoderWeights w = SyntheticDecoderWeights(shape, 9);
  DecoderModel f32(shape, w, 4), q8(shape, w, 4, DecoderActivations::kQ8), head(shape, w, 4);
  head.SetActivations(DecoderActivations::kF32, DecoderActivations::kQ8);
  const std::vector<float> a = f32.Step(3), b = q8.Step(3), c = head.Step(3);
  double largest = 0, q8_gap = 0, head_gap = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    largest = std::max(largest, double{std::abs(a[i])});
    q8_gap = std::max(q8_gap, double{std::abs(a[i] - b[i])});
    head_gap = std::max(head_gap, double{std::abs(a[i] - c[i])});
  }
  EXPECT_GT(q8_gap, 0);
  EXPECT_LT(q8_gap, 0.05 * largest);
  EXPECT_GT(head_gap, 0);
  EXPECT_NE(b, c);
}

}  // namespace
}  // namespace refract::reference
