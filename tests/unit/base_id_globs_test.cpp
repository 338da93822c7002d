// `--filter`'s globs on row ids (base/id_globs.h), shared by ceilings, kernels and sweep.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/id_globs.h"

namespace refract {
namespace {

TEST(IdGlobs, AnIdIsKeptWhenAnyGlobMatchesIt) {
  const std::vector<std::string> globs = {"f32-*", "*/m50/*"};
  EXPECT_TRUE(MatchesAnyGlob("f32-fma-vec4", globs));
  EXPECT_TRUE(MatchesAnyGlob("matmul-q4/qwen2.5-0.5b/down/m50/tuned", globs));  // '*' spans '/'
  EXPECT_FALSE(MatchesAnyGlob("f16-fma-vec4", globs));
  EXPECT_FALSE(MatchesAnyGlob("f32-fma-vec4", {}));
  // '?' stands for one character, the comma of a configuration id among them.
  EXPECT_TRUE(MatchesAnyGlob("q2-scan/v4096/d128/lut_shared=0:vpt=1:wg=64",
                             std::vector<std::string>{"*/lut_shared=0?vpt=1?wg=64"}));
  EXPECT_FALSE(MatchesAnyGlob("f32-fma", std::vector<std::string>{"f32-fma-*"}));
}

TEST(IdGlobs, TheFirstGlobThatMatchesNoIdIsNamed) {
  const std::vector<std::string> ids = {"a/default", "a/wg=64", "b/default"};
  EXPECT_EQ(GlobMatchingNoId(std::vector<std::string>{"*/default", "a/*"}, ids), std::nullopt);
  EXPECT_EQ(GlobMatchingNoId(std::vector<std::string>{"*/default", "c/*", "d*"}, ids), "c/*");
  EXPECT_EQ(GlobMatchingNoId(std::vector<std::string>{"a/*"}, {}), "a/*");
  EXPECT_EQ(GlobMatchingNoId({}, ids), std::nullopt);
}

}  // namespace
}  // namespace refract
