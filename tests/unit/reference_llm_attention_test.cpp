// The attention model on cases small enough to work out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "base/error.h"
#include "reference/llm_attention.h"

namespace refract::reference {
namespace {

// d = 4 (scale 1/2), q = (1,1,1,1), k0 = 0, k1 = (1,1,1,1): logits 0 and 4/2 = 2, so the weights
// are 1/(1+e²) = 0.1192029 and e²/(1+e²) = 0.8807971; v0 = e0 and v1 = e1 pick them out.
const std::vector<float> kQ = {1, 1, 1, 1};
const std::vector<float> kK = {0, 0, 0, 0, 1, 1, 1, 1};
const std::vector<float> kV = {1, 0, 0, 0, 0, 1, 0, 0};

TEST(ReferenceLlmAttention, WeighsValuesBySoftmaxOfScaledScores) {
  AttentionShape shape{.seq_len = 1, .kv_len = 2, .head_dim = 4, .position_offset = 1};
  std::vector<float> out = Attention(shape, kQ, kK, kV);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_NEAR(out[0], 0.1192029, 1e-6);
  EXPECT_NEAR(out[1], 0.8807971, 1e-6);
  EXPECT_EQ(out[2], 0.0f);
  EXPECT_EQ(out[3], 0.0f);
}

TEST(ReferenceLlmAttention, CausalMaskHidesLaterKeys) {
  // Offset 0: query 0 sees only key 0, so its output is v0 exactly; without the mask it sees
  // both keys, as above.
  AttentionShape shape{.seq_len = 1, .kv_len = 2, .head_dim = 4, .position_offset = 0};
  EXPECT_EQ(Attention(shape, kQ, kK, kV), (std::vector<float>{1, 0, 0, 0}));
  shape.causal = false;
  EXPECT_NEAR(Attention(shape, kQ, kK, kV)[1], 0.8807971, 1e-6);
}

TEST(ReferenceLlmAttention, GroupedHeadsShareTheirKeyValueHead) {
  // Four query heads over two KV heads (d = 1, scale 1): heads 0, 1 read KV head 0, heads 2, 3
  // read KV head 1. One key: every weight is 1, so each output is its KV head's value.
  AttentionShape shape{.seq_len = 1, .kv_len = 1, .heads = 4, .kv_heads = 2, .head_dim = 1};
  std::vector<float> q = {1, 2, 3, 4}, k = {5, 6}, v = {7, 9};
  EXPECT_EQ(Attention(shape, q, k, v), (std::vector<float>{7, 7, 9, 9}));
}

TEST(ReferenceLlmAttention, CountsVisiblePairs) {
  AttentionShape prefill{.seq_len = 3, .kv_len = 3};
  EXPECT_EQ(VisiblePairs(prefill), 6u);  // 1 + 2 + 3
  prefill.causal = false;
  EXPECT_EQ(VisiblePairs(prefill), 9u);
  AttentionShape decode{.seq_len = 1, .kv_len = 4096, .position_offset = 4095};
  EXPECT_EQ(VisiblePairs(decode), 4096u);
  EXPECT_EQ(VisibleKeys(decode, 0), 4096u);
}

TEST(ReferenceLlmAttention, RefusesHeadsThatDoNotGroup) {
  EXPECT_THROW(CheckAttentionShape({.heads = 3, .kv_heads = 2}), UsageError);
  EXPECT_THROW(CheckAttentionShape({.kv_len = 0}), UsageError);
}

TEST(ReferenceLlmAttention, ToleranceScalesWithTheOutput) {
  std::vector<float> out = {0.5f, -2.0f};
  EXPECT_DOUBLE_EQ(AttentionTolerance(out).absolute, 2.0 * kAttentionRelTolerance);
}

}  // namespace
}  // namespace refract::reference
