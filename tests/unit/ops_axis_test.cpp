// Axes as data: allowed values, `--set` parsing and its errors, and the axis tables' values,
// replacement, checks and grids (no GPU).
#include <gtest/gtest.h>

#include <set>

#include "base/error.h"
#include "ops/axis.h"

namespace refract::ops {
namespace {

struct Config {
  uint32_t wg = 256, rows = 2, flag = 0;
};

const AxisTable<Config>& Table() {
  static const AxisTable<Config> kTable({
      {{.name = "wg",
        .meaning = "invocations",
        .min = 32,
        .max = 1024,
        .power_of_two = true,
        .grid = {64, 128}},
       &Config::wg},
      {{.name = "rows", .meaning = "rows", .min = 1, .max = 8, .grid = {1, 2, 4}}, &Config::rows},
      {{.name = "flag", .meaning = "a flag", .choices = {0, 4}}, &Config::flag},
  });
  return kTable;
}

std::string UsageMessage(const std::vector<std::string>& pairs) {
  try {
    ParseSettings(pairs, Table().axes(), "test-kernel");
  } catch (const UsageError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(OpsAxis, AllowedValues) {
  const std::vector<Axis>& axes = Table().axes();
  EXPECT_TRUE(axes[0].Allows(32));
  EXPECT_TRUE(axes[0].Allows(1024));
  EXPECT_FALSE(axes[0].Allows(96));    // not a power of two
  EXPECT_FALSE(axes[0].Allows(2048));  // above the range
  EXPECT_FALSE(axes[0].Allows(16));
  EXPECT_TRUE(axes[1].Allows(3));
  EXPECT_FALSE(axes[1].Allows(0));
  EXPECT_TRUE(axes[2].Allows(4));
  EXPECT_FALSE(axes[2].Allows(2));
  EXPECT_EQ(axes[0].AllowedText(), "a power of two from 32 to 1024");
  EXPECT_EQ(axes[1].AllowedText(), "1 to 8");
  EXPECT_EQ(axes[2].AllowedText(), "0 or 4");
}

TEST(OpsAxis, ParsesWholeNumbersByName) {
  const Settings settings = ParseSettings({"wg=64", "rows=3"}, Table().axes(), "k");
  EXPECT_EQ(settings, (Settings{{"wg", 64}, {"rows", 3}}));
  EXPECT_EQ(SettingsText(settings), "rows=3:wg=64");
  EXPECT_TRUE(ParseSettings({}, Table().axes(), "k").empty());
}

TEST(OpsAxis, RefusesWhatNoAxisAllows) {
  // An unknown (or differently spelt) name lists the known ones.
  EXPECT_EQ(UsageMessage({"WG=64"}),
            "--set WG=64: test-kernel has no tunable axis 'WG' (its axes: wg, rows, flag)");
  // Not whole numbers: a fraction, a sign, an exponent, NaN, nothing, beyond 32 bits.
  for (const char* value : {"64.5", "-1", "+4", "1e3", "nan", "", "4294967296", " 4"}) {
    EXPECT_NE(
        UsageMessage({std::string("rows=") + value}).find("rows takes a whole number (1 to 8)"),
        std::string::npos)
        << value;
  }
  EXPECT_EQ(UsageMessage({"wg=96"}),
            "--set wg=96: wg must be a power of two from 32 to 1024 (invocations)");
  EXPECT_EQ(UsageMessage({"rows=9"}), "--set rows=9: rows must be 1 to 8 (rows)");
  EXPECT_EQ(UsageMessage({"rows"}), "--set takes NAME=VALUE, not 'rows'");
  EXPECT_EQ(UsageMessage({"=3"}), "--set takes NAME=VALUE, not '=3'");
  EXPECT_EQ(UsageMessage({"rows=2", "rows=3"}), "--set names rows twice");
}

TEST(OpsAxis, AnAxisOfTwoOpsPassesWhenEitherAllowsIt) {
  std::vector<Axis> axes = Table().axes();
  axes.push_back({.name = "rows", .meaning = "other rows", .min = 16, .max = 32});
  EXPECT_EQ(ParseSettings({"rows=20"}, axes, "k").at("rows"), 20u);
  EXPECT_EQ(ParseSettings({"rows=2"}, axes, "k").at("rows"), 2u);
  EXPECT_THROW(ParseSettings({"rows=12"}, axes, "k"), UsageError);
}

TEST(OpsAxis, TableReadsAndWritesTheFields) {
  const Config config{.wg = 128, .rows = 4, .flag = 4};
  EXPECT_EQ(Table().ValuesOf(config), (Settings{{"wg", 128}, {"rows", 4}, {"flag", 4}}));
  const Config replaced = Table().With(config, {{"rows", 1}, {"other_op_axis", 7}});
  EXPECT_EQ(replaced.rows, 1u);
  EXPECT_EQ(replaced.wg, 128u);
  EXPECT_EQ(Table().Disallowed(config), std::nullopt);
  EXPECT_EQ(Table().Disallowed({.wg = 100}), "wg 100 is not a power of two from 32 to 1024");
  EXPECT_EQ(Table().Disallowed({.flag = 1}), "flag 1 is not 0 or 4");
}

TEST(OpsAxis, GridIsTheProductOfTheAxesGrids) {
  const std::vector<Config> grid = Table().Grid(Config{.flag = 4});
  ASSERT_EQ(grid.size(), 2u * 3u);  // flag has no grid: base's value everywhere
  std::set<std::pair<uint32_t, uint32_t>> points;
  for (const Config& c : grid) {
    points.insert({c.wg, c.rows});
    EXPECT_EQ(c.flag, 4u);
  }
  EXPECT_EQ(points.size(), 6u);
  EXPECT_EQ(grid.front().wg, 64u);  // the first axis varies slowest
  EXPECT_EQ(grid.front().rows, 1u);
  EXPECT_EQ(grid.back().wg, 128u);
  EXPECT_EQ(grid.back().rows, 4u);
}

}  // namespace
}  // namespace refract::ops
