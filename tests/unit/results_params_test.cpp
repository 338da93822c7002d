#include <gtest/gtest.h>

#include "results/params.h"

namespace refract::results {
namespace {

TEST(ResultsParams, ValuesKeepTheirKind) {
  Params params = {{"m", 1}, {"bytes", uint64_t{1} << 40}, {"scale", 0.5}, {"dtype", "f32"}};
  EXPECT_TRUE(params["m"].IsInteger());
  EXPECT_EQ(params["bytes"].AsInteger(), int64_t{1} << 40);
  EXPECT_TRUE(params["scale"].IsReal());
  EXPECT_EQ(params["dtype"].AsText(), "f32");
}

TEST(ResultsParams, TextListsNamesInOrder) {
  Params params = {{"n", 896}, {"dtype", "f32"}, {"eps", 1e-6}};
  EXPECT_EQ(ParamsText(params), "dtype=f32 eps=1e-06 n=896");
}

TEST(ResultsParams, EqualityComparesKindAndValue) {
  EXPECT_EQ(ParamValue(3), ParamValue(uint64_t{3}));
  EXPECT_NE(ParamValue(3), ParamValue(3.0));
  EXPECT_NE(ParamValue("3"), ParamValue(3));
}

}  // namespace
}  // namespace refract::results
