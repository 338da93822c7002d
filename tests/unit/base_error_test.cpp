// The error hierarchy's source locations: kept beside a message, never in it.
#include <gtest/gtest.h>

#include "base/error.h"

namespace refract {
namespace {

TEST(BaseError, ThrowIfKeepsTheLocationOutOfTheMessage) {
  try {
    REFRACT_THROW_IF(true, UsageError, "the value 3 is not allowed");
    FAIL() << "nothing thrown";
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(), "the value 3 is not allowed");
    EXPECT_NE(error.location().find("base_error_test.cpp:"), std::string::npos) << error.location();
  }
  EXPECT_NO_THROW(REFRACT_THROW_IF(false, Error, "never"));
}

TEST(BaseError, SourceLocationStartsAtSrc) {
  EXPECT_EQ(SourceLocation("/home/ci/build/../src/gpu/context.cpp", 12), "src/gpu/context.cpp:12");
  EXPECT_EQ(SourceLocation("other/file.cpp", 3), "other/file.cpp:3");
}

}  // namespace
}  // namespace refract
