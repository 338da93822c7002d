// The seeded stream every synthetic input is drawn from: NextBelow's range, up to every u32.
#include <gtest/gtest.h>

#include <cstdint>

#include "reference/random_data.h"

namespace refract::reference {
namespace {

TEST(RandomStream, NextBelowStaysBelowItsBound) {
  RandomStream stream(7);
  for (int i = 0; i < 1000; ++i) {
    EXPECT_LT(stream.NextBelow(3), 3u);
    EXPECT_EQ(stream.NextBelow(1), 0u);
  }
}

TEST(RandomStream, NextBelowTwoToThe32DrawsEveryBitOfAU32) {
  // The bound 2^32 is the whole u32 range: the draw is the next 64-bit value's top half.
  RandomStream draws(11), twin(11);
  bool high_bit = false, low_bit = false;
  for (int i = 0; i < 64; ++i) {
    const uint32_t value = draws.NextBelow(uint64_t{1} << 32);
    EXPECT_EQ(value, static_cast<uint32_t>(twin.NextU64() >> 32));
    high_bit |= (value >> 31) != 0;
    low_bit |= (value & 1u) != 0;
  }
  EXPECT_TRUE(high_bit);
  EXPECT_TRUE(low_bit);
}

}  // namespace
}  // namespace refract::reference
