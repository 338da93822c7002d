#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "reference/compare.h"

namespace refract::reference {
namespace {

using ::testing::HasSubstr;

std::string MessageOf(const std::function<void()>& body) {
  try {
    body();
  } catch (const VerificationError& error) {
    return error.what();
  }
  return "(no VerificationError)";
}

TEST(ReferenceCompare, ExactIntegersPassAndRecordWhatWasChecked) {
  std::vector<uint32_t> gpu = {1, 2, 3};
  std::vector<uint32_t> cpu = {1, 2, 3};
  VerificationRecord record = Compare("row", gpu, cpu, Tolerance{});
  EXPECT_EQ(record.elements, 3u);
  EXPECT_EQ(record.max_abs_error, 0);
  EXPECT_TRUE(record.tolerance.IsExact());
}

TEST(ReferenceCompare, ExactToleranceRejectsAnyDifference) {
  std::vector<int32_t> gpu = {1, 2, 4};
  std::vector<int32_t> cpu = {1, 2, 3};
  EXPECT_THAT(MessageOf([&] { Compare("row", gpu, cpu, Tolerance{}); }),
              HasSubstr("row: 1 of 3 outputs disagree with the CPU model (tolerance exact; max "
                        "|error| 1 at element 2): element 2: GPU 4, CPU 3"));
}

TEST(ReferenceCompare, WholeNumbersPrintEveryDigit) {
  // A u32 of ten digits is named exactly (precision 9 would print 4.29496729e+09); fractions
  // keep nine significant digits.
  std::vector<uint32_t> gpu = {4294967295u};
  std::vector<uint32_t> cpu = {4294967294u};
  EXPECT_THAT(MessageOf([&] { Compare("u", gpu, cpu, Tolerance{}); }),
              HasSubstr("max |error| 1 at element 0): element 0: GPU 4294967295, CPU 4294967294"));
  std::vector<double> fraction = {1.0 / 3.0};
  std::vector<double> zero = {0.0};
  EXPECT_THAT(MessageOf([&] { Compare("f", fraction, zero, Tolerance{}); }),
              HasSubstr("GPU 0.333333333, CPU 0"));
}

TEST(ReferenceCompare, AbsoluteAndRelativeToleranceAdd) {
  // allowed = 0.1 + 0.01 * |cpu|: at cpu = 100 that is 1.1.
  std::vector<float> cpu = {100.0f, 0.0f};
  std::vector<float> inside = {101.0f, 0.09f};
  VerificationRecord record = Compare("k", inside, cpu, Tolerance{0.1, 0.01});
  EXPECT_NEAR(record.max_abs_error, 1.0, 1e-9);
  std::vector<float> outside = {101.2f, 0.0f};
  EXPECT_THAT(MessageOf([&] {
                Compare("k", outside, cpu, Tolerance{0.1, 0.01});
              }),
              HasSubstr("1 of 2 outputs disagree"));
}

TEST(ReferenceCompare, AReferenceOtherThanACpuModelIsNamedAsGiven) {
  // refract tune checks against the user's reference, not a CPU model of refract's.
  Comparison comparison("tune:k/p/default output", Tolerance{0.5, 0.25}, {},
                        {.phrase = "the reference", .label = "reference"});
  comparison.Check(0, 1.0, 1.0);
  comparison.Check(1, 9.0, 4.0);
  const std::string message = MessageOf([&] { comparison.Finish(); });
  EXPECT_THAT(message, HasSubstr("tune:k/p/default output: 1 of 2 outputs disagree with the "
                                 "reference (tolerance |error| <= 0.5 + 0.25*|reference|; max "
                                 "|error| 5 at element 1): element 1: GPU 9, reference 4"));
  EXPECT_THAT(message, ::testing::Not(HasSubstr("CPU")));
}

TEST(ReferenceCompare, NanNeverPassesAndIsTheMaxError) {
  std::vector<double> gpu = {1.0, std::numeric_limits<double>::quiet_NaN(), 5.0};
  std::vector<double> cpu = {1.0, 2.0, 3.0};
  std::string message = MessageOf([&] { Compare("k", gpu, cpu, Tolerance{1e9, 1e9}); });
  EXPECT_THAT(message, HasSubstr("1 of 3 outputs disagree"));
  EXPECT_THAT(message, HasSubstr("max |error| nan at element 1"));
}

TEST(ReferenceCompare, NamesIndicesInTheKernelsTermsAndListsTheFirstThree) {
  std::vector<float> gpu(10, 1.0f);
  std::vector<float> cpu(10, 0.0f);
  auto namer = [](size_t i) {
    return "row " + std::to_string(i / 5) + ", col " + std::to_string(i % 5);
  };
  std::string message = MessageOf([&] { Compare("m", gpu, cpu, Tolerance{}, namer); });
  EXPECT_THAT(message, HasSubstr("10 of 10 outputs"));
  EXPECT_THAT(message, HasSubstr("row 0, col 0: GPU 1, CPU 0; row 0, col 1: GPU 1, CPU 0; row 0, "
                                 "col 2: GPU 1, CPU 0"));
  EXPECT_THAT(message, ::testing::Not(HasSubstr("col 3")));
}

TEST(ReferenceCompare, SizeMismatchFails) {
  std::vector<float> gpu(3), cpu(4);
  EXPECT_THAT(MessageOf([&] {
                Compare("m", gpu, cpu, Tolerance{1, 1});
              }),
              HasSubstr("m: the kernel gave 3 values, the model 4"));
}

TEST(ReferenceCompare, MaxMagnitudeIgnoresNan) {
  std::vector<float> values = {-3.0f, std::numeric_limits<float>::quiet_NaN(), 2.0f};
  EXPECT_EQ(MaxMagnitude(values), 3.0);
  EXPECT_EQ(MaxMagnitude(std::span<const float>()), 0.0);
}

}  // namespace
}  // namespace refract::reference
