// The CPU models of the technique rows, checked against properties and hand-computed values,
// not against themselves.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "reference/technique_models.h"

namespace refract::reference {
namespace {

TEST(ReferenceTechniqueTest, SattoloPermutationIsOneCycle) {
  for (uint32_t count : {2u, 3u, 17u, 4096u}) {
    std::vector<uint32_t> next = SattoloPermutation(count, 42);
    ASSERT_EQ(next.size(), count);
    std::set<uint32_t> values(next.begin(), next.end());
    EXPECT_EQ(values.size(), count) << "a permutation";
    uint32_t i = 0;
    uint32_t steps = 0;
    do {
      i = next[i];
      ++steps;
    } while (i != 0 && steps <= count);
    EXPECT_EQ(steps, count) << "0 returns to itself after exactly count hops";
  }
  EXPECT_EQ(SattoloPermutation(4096, 7), SattoloPermutation(4096, 7)) << "deterministic";
  EXPECT_NE(SattoloPermutation(4096, 7), SattoloPermutation(4096, 8));
}

TEST(ReferenceTechniqueTest, ChainEndsFollowTheHops) {
  std::vector<uint32_t> next = {1, 2, 3, 0};  // 0 → 1 → 2 → 3 → 0
  EXPECT_EQ(ChainEnds(next, 2, 2, 0), (std::vector<uint32_t>{0, 2}));
  EXPECT_EQ(ChainEnds(next, 2, 2, 3), (std::vector<uint32_t>{3, 1}));
  EXPECT_EQ(ChainEnds(next, 2, 2, 4), (std::vector<uint32_t>{0, 2}));
}

TEST(ReferenceTechniqueTest, HistogramKeysSendHalfToBinZero) {
  std::vector<uint32_t> keys = MakeHistogramKeys(100000);
  std::vector<uint32_t> bins = Histogram32(keys);
  ASSERT_EQ(bins.size(), kHistogramBins);
  uint64_t total = 0;
  for (uint32_t n : bins) total += n;
  EXPECT_EQ(total, 100000u);
  EXPECT_NEAR(bins[0], 50000.0, 1000.0);
  for (uint32_t b = 1; b < kHistogramBins; ++b) EXPECT_NEAR(bins[b], 50000.0 / 31, 250.0) << b;
  EXPECT_EQ(Histogram32(std::vector<uint32_t>{3, 3, 0, 31})[3], 2u);
}

TEST(ReferenceTechniqueTest, BranchStepIsATwistedRingCounter) {
  EXPECT_EQ(BranchStep(0.0f), 1.0f);
  EXPECT_EQ(BranchStep(1023.0f), 2047.0f);
  EXPECT_EQ(BranchStep(1024.0f), 0.0f);
  EXPECT_EQ(BranchStep(2047.0f), 2046.0f);
  std::set<float> images;
  for (int x = 0; x < 2048; ++x) images.insert(BranchStep(static_cast<float>(x)));
  EXPECT_EQ(images.size(), 2048u) << "a bijection of [0, 2048)";
  EXPECT_EQ(*images.rbegin(), 2047.0f);
  // Every state returns after 22 steps (the counter's period on 11 bits).
  std::vector<float> lanes = MakeBranchLanes(64);
  EXPECT_EQ(BranchModel(lanes, 22), lanes);
  EXPECT_NE(BranchModel(lanes, 1), lanes);
}

TEST(ReferenceTechniqueTest, BoxStencilClampsAtTheBorders) {
  // 3x2 image; the corner (0,0) sees rows 0,0,1 and columns 0,0,1.
  std::vector<float> image = {1, 2, 3, 4, 5, 6};
  std::vector<float> out = BoxStencil3x3(image, 3, 2);
  ASSERT_EQ(out.size(), 6u);
  EXPECT_FLOAT_EQ(out[0], (2 * (1 + 1 + 2) + (4 + 4 + 5)) / 9.0f);
  EXPECT_FLOAT_EQ(out[4], ((1 + 2 + 3) + 2 * (4 + 5 + 6)) / 9.0f);
  std::vector<float> flat(16, 2.0f);
  for (float value : BoxStencil3x3(flat, 4, 4)) EXPECT_FLOAT_EQ(value, 2.0f);
}

TEST(ReferenceTechniqueTest, ParticleLayoutsPlaceFields) {
  EXPECT_EQ(ParticleIndex(ParticleLayout::kAos, 64, 2, 3), 19u);
  EXPECT_EQ(ParticleIndex(ParticleLayout::kSoa, 64, 2, 3), 194u);
  EXPECT_EQ(ParticleIndex(ParticleLayout::kAosoa, 64, 33, 3), (1u * 8 + 3) * 32 + 1);
  // The three layouts hold the same particles and advance them the same way.
  std::vector<float> aos = MakeParticles(ParticleLayout::kAos, 64);
  std::vector<float> aosoa = MakeParticles(ParticleLayout::kAosoa, 64);
  AdvanceParticles(ParticleLayout::kAos, 64, 0.5f, aos);
  AdvanceParticles(ParticleLayout::kAosoa, 64, 0.5f, aosoa);
  for (uint32_t p = 0; p < 64; ++p) {
    for (uint32_t f = 0; f < kParticleFields; ++f) {
      EXPECT_EQ(aos[ParticleIndex(ParticleLayout::kAos, 64, p, f)],
                aosoa[ParticleIndex(ParticleLayout::kAosoa, 64, p, f)]);
    }
  }
  std::vector<float> before = MakeParticles(ParticleLayout::kAos, 64);
  EXPECT_EQ(aos[0], before[0] + before[3] * 0.5f);
  EXPECT_EQ(aos[7], before[7]) << "age is not touched";
}

TEST(ReferenceTechniqueTest, SegmentSumsAndScaleAdd) {
  std::vector<uint32_t> data = {1, 2, 3, 4, 0xffffffffu, 2};
  EXPECT_EQ(SegmentSums(data, 2), (std::vector<uint32_t>{3, 7, 1}));  // the last one wraps
  EXPECT_EQ(MakeSegments(4, 256).size(), 1024u);
  std::vector<float> x = {0.0f, 1.0f, 2.5f};
  EXPECT_EQ(ScaleAddModel(x, 1.5f, 0.25f), (std::vector<float>{0.25f, 1.75f, 4.0f}));
  for (float value : ScaleAddInput(1000)) {
    EXPECT_GE(value, 0.0f);
    EXPECT_LT(value, 16.0f);
  }
}

}  // namespace
}  // namespace refract::reference
