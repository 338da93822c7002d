// The embedding lookup's CPU model on a table worked out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "base/error.h"
#include "reference/llm_embedding.h"

namespace refract::reference {
namespace {

TEST(ReferenceLlmEmbedding, GathersRowsInTokenOrder) {
  // A 3 × 2 table [[0, 1], [10, 11], [20, 21]]; ids 2, 0, 2 give rows 2, 0, 2.
  const std::vector<float> table = {0, 1, 10, 11, 20, 21};
  const std::vector<uint32_t> ids = {2, 0, 2};
  EXPECT_EQ(Embedding(ids, table, 2), (std::vector<float>{20, 21, 0, 1, 20, 21}));
  EXPECT_TRUE(kEmbeddingTolerance.IsExact());
}

TEST(ReferenceLlmEmbedding, RefusesAnIdOutsideTheTable) {
  const std::vector<float> table = {0, 1, 10, 11};
  const std::vector<uint32_t> ids = {2};
  EXPECT_THROW(Embedding(ids, table, 2), Error);
}

}  // namespace
}  // namespace refract::reference
