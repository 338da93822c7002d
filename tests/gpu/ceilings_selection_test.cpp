// Which rows a run gets: SelectRows with globs, categories and presets. No GPU work: the rows
// are only built, never prepared.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "base/error.h"
#include "suites/ceilings/catalog.h"

namespace refract::suites::ceilings {
namespace {

std::vector<std::string> Ids(const std::vector<std::unique_ptr<bench::Benchmark>>& rows) {
  std::vector<std::string> ids;
  for (const auto& row : rows) ids.push_back(row->info().id);
  return ids;
}

std::vector<std::string> Select(const Selection& selection) {
  return Ids(SelectRows(MakeCatalog({}), selection));
}

// The error SelectRows throws, or "(no error)".
std::string UsageErrorOf(const Selection& selection) {
  try {
    SelectRows(MakeCatalog({}), selection);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "(no error)";
}

// `ids` in catalog order: the order SelectRows keeps.
std::vector<std::string> InCatalogOrder(const std::vector<std::string>& ids) {
  std::vector<std::string> ordered;
  for (const std::string& id : Ids(MakeCatalog({}))) {
    if (std::find(ids.begin(), ids.end(), id) != ids.end()) ordered.push_back(id);
  }
  return ordered;
}

TEST(CeilingsSelection, FullPresetIsTheWholeCatalogWithUniqueIds) {
  const std::vector<std::string> all = Ids(MakeCatalog({}));
  EXPECT_EQ(Select({}), all);
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), all.size());
  EXPECT_GT(all.size(), 40u);
}

TEST(CeilingsSelection, CoreAndQuickPresetsAreTheirListsInCatalogOrder) {
  for (const Preset preset : {Preset::kCore, Preset::kQuick}) {
    const std::vector<std::string>& listed = PresetRowIds(preset);
    const std::vector<std::string> selected = Select({.preset = preset});
    // Every listed id names a row: a renamed row would silently drop out of its preset.
    EXPECT_EQ(selected.size(), listed.size());
    EXPECT_EQ(selected, InCatalogOrder(listed));
  }
  EXPECT_EQ(PresetRowIds(Preset::kCore).size(), 17u);
  EXPECT_EQ(PresetRowIds(Preset::kQuick).size(), 12u);
}

TEST(CeilingsSelection, PresetNames) {
  EXPECT_EQ(PresetFromName("core"), Preset::kCore);
  EXPECT_EQ(PresetFromName("quick"), Preset::kQuick);
  EXPECT_EQ(PresetFromName("full"), Preset::kFull);
  EXPECT_THROW(PresetFromName("Full"), UsageError);
  EXPECT_THROW(PresetFromName(""), UsageError);
}

TEST(CeilingsSelection, GlobsChooseFromTheWholeCatalogAndIgnoreThePreset) {
  const std::vector<std::string> selected =
      Select({.globs = {"f32-fma-*", "read-linear", "f32-fma-scalar"}, .preset = Preset::kQuick});
  EXPECT_EQ(selected,
            InCatalogOrder({"read-linear", "f32-fma-scalar", "f32-fma-vec4", "f32-fma-mat4",
                            "f32-fma-matvec", "f32-fma-builtin", "f32-fma-wide"}));
  // f32-fma-mat4 is in no quick preset, yet the glob picks it; overlapping globs pick a row once.
}

TEST(CeilingsSelection, CategoryNarrowsAPresetOrAGlob) {
  const std::vector<std::string> bandwidth = Select({.category = "bandwidth"});
  EXPECT_FALSE(bandwidth.empty());
  for (const auto& row : SelectRows(MakeCatalog({}), {.category = "bandwidth"})) {
    EXPECT_EQ(row->info().category, "bandwidth") << row->info().id;
  }
  EXPECT_EQ(Select({.category = "bandwidth", .preset = Preset::kCore}),
            (std::vector<std::string>{"read-linear", "write-linear"}));
  EXPECT_EQ(Select({.globs = {"*-linear", "f32-div"}, .category = "compute"}),
            std::vector<std::string>{"f32-div"});
}

TEST(CeilingsSelection, SelectionsThatPickNothingAreUsageErrors) {
  EXPECT_NE(
      UsageErrorOf({.globs = {"f32-*", "no-such-row*"}}).find("'no-such-row*' matches no row"),
      std::string::npos);
  EXPECT_NE(UsageErrorOf({.category = "magic"}).find("unknown category 'magic'"),
            std::string::npos);
  EXPECT_NE(UsageErrorOf({.category = "algorithm", .preset = Preset::kCore})
                .find("the selection leaves no row to run"),
            std::string::npos);
}

}  // namespace
}  // namespace refract::suites::ceilings
