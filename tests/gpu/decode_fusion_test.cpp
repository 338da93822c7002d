// `refract decode --fusion`: each value's fused kernels on a GPU and on a CPU adapter. The e2e
// test of the default runs on whichever adapter the machine has; this table checks both.
#include "cli/decode_fusion.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/error.h"

namespace refract::cli {
namespace {

using decode::MergeFusion;

struct Case {
  std::string flag;
  bool cpu_adapter;
  bool fuse;
  MergeFusion merge;
  bool fuse_down;
};

TEST(DecodeFusion, EachValueAsksForItsKernelsAndAutoIsDownOnAGpuAndOffOnACpuAdapter) {
  const std::vector<Case> cases = {
      {"auto", false, true, MergeFusion::kAuto, true},
      {"auto", true, false, MergeFusion::kAuto, false},
      {"down", false, true, MergeFusion::kAuto, true},
      {"down", true, true, MergeFusion::kAuto, true},
      {"on", false, true, MergeFusion::kAuto, false},
      {"on", true, true, MergeFusion::kAuto, false},
      {"own-merge", false, true, MergeFusion::kOwnDispatch, false},
      {"o-heads", true, true, MergeFusion::kByHead, false},
      {"o-merge", false, true, MergeFusion::kInOGemv, false},
      {"off", false, false, MergeFusion::kAuto, false},
      {"off", true, false, MergeFusion::kAuto, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.flag + (c.cpu_adapter ? " on a CPU adapter" : " on a GPU"));
    const DecodeFusion fusion = ChooseDecodeFusion(c.flag, c.cpu_adapter);
    EXPECT_EQ(fusion.fuse, c.fuse);
    EXPECT_EQ(fusion.merge, c.merge);
    EXPECT_EQ(fusion.fuse_down, c.fuse_down);
  }
}

TEST(DecodeFusion, EveryValueTheFlagTakesNamesADesign) {
  for (const std::string& flag : DecodeFusionChoices()) {
    EXPECT_NO_THROW(ChooseDecodeFusion(flag, false)) << flag;
  }
}

TEST(DecodeFusion, AnUnknownValueIsAUsageErrorNamingIt) {
  try {
    ChooseDecodeFusion("downn", false);
    FAIL() << "expected a UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--fusion downn: expected one of auto, on, own-merge"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace refract::cli
