#include "suites/ceilings/catalog.h"

#include <algorithm>

#include "base/error.h"
#include "base/id_globs.h"
#include "suites/ceilings/alu_row.h"
#include "suites/ceilings/catalog_alu_rows.h"
#include "suites/ceilings/core_alu_rows.h"
#include "suites/ceilings/linear_bandwidth_row.h"
#include "suites/ceilings/memory_pattern_rows.h"
#include "suites/ceilings/technique_rows.h"
#include "suites/ceilings/texture_rows.h"

namespace refract::suites::ceilings {
namespace {

constexpr const char* kCategories[] = {"bandwidth", "compute", "algorithm"};

bool Contains(const std::vector<std::string>& ids, std::string_view id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

}  // namespace

std::vector<std::unique_ptr<bench::Benchmark>> MakeCatalog(const CatalogOptions& options) {
  std::vector<std::unique_ptr<bench::Benchmark>> rows;
  rows.push_back(
      std::make_unique<LinearBandwidthRow>(LinearAccess::kRead, options.bandwidth_buffer_bytes));
  rows.push_back(
      std::make_unique<LinearBandwidthRow>(LinearAccess::kWrite, options.bandwidth_buffer_bytes));
  for (auto& row : MakeMemoryPatternRows(options)) rows.push_back(std::move(row));
  for (auto& row : MakeTextureRows(options)) rows.push_back(std::move(row));
  for (const AluRowSpec& spec : CoreAluRows()) rows.push_back(std::make_unique<AluRow>(spec));
  for (const AluRowSpec& spec : CatalogAluRows()) rows.push_back(std::make_unique<AluRow>(spec));
  for (auto& row : MakeTechniqueRows()) rows.push_back(std::move(row));
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    auto rank = [](const std::string& category) {
      return std::find(std::begin(kCategories), std::end(kCategories), category) -
             std::begin(kCategories);
    };
    return rank(a->info().category) < rank(b->info().category);
  });
  return rows;
}

Preset PresetFromName(const std::string& name) {
  if (name == "core") return Preset::kCore;
  if (name == "quick") return Preset::kQuick;
  if (name == "full") return Preset::kFull;
  throw UsageError("unknown preset '" + name + "' (choose core, quick or full)");
}

const std::vector<std::string>& PresetRowIds(Preset preset) {
  static const std::vector<std::string> kCore = {
      "read-linear",    "write-linear",   "f32-fma-scalar", "f32-fma-vec4",   "f32-fma-mat4",
      "f32-fma-matvec", "f16-fma-scalar", "f16-fma-vec4",   "f16-fma-mat4",   "f16-fma-matvec",
      "i32-mad-scalar", "i32-mad-vec4",   "i32-mad-mat4",   "i32-mad-matvec", "i8-dp4a-matvec",
      "i8-dp4a",        "u8-dp4a"};
  // One row per kind of limit a kernel author meets: bandwidth both ways, FMA per type and
  // width, integer, dp4a, the costly math ops, a divergent branch.
  static const std::vector<std::string> kQuick = {
      "read-linear",  "write-linear", "f32-fma-scalar", "f32-fma-vec4",
      "f16-fma-vec4", "i32-mad-vec4", "i8-dp4a",        "f32-div",
      "f32-sqrt",     "f32-sincos",   "f32-log",        "branch-divergent"};
  static const std::vector<std::string> kFull = {};
  switch (preset) {
    case Preset::kCore:
      return kCore;
    case Preset::kQuick:
      return kQuick;
    case Preset::kFull:
      return kFull;
  }
  return kFull;
}

std::vector<std::unique_ptr<bench::Benchmark>> SelectRows(
    std::vector<std::unique_ptr<bench::Benchmark>> catalog, const Selection& selection) {
  if (selection.category && std::find(std::begin(kCategories), std::end(kCategories),
                                      *selection.category) == std::end(kCategories)) {
    throw UsageError("unknown category '" + *selection.category +
                     "' (choose compute, bandwidth or algorithm)");
  }
  std::vector<std::string> ids;
  for (const auto& row : catalog) ids.push_back(row->info().id);
  if (const auto glob = GlobMatchingNoId(selection.globs, ids)) {
    throw UsageError("--filter '" + *glob + "' matches no row (see refract ceilings --list)");
  }
  const std::vector<std::string>& preset_ids = PresetRowIds(selection.preset);
  std::vector<std::unique_ptr<bench::Benchmark>> selected;
  for (auto& row : catalog) {
    const bench::BenchmarkInfo& info = row->info();
    bool wanted;
    if (!selection.globs.empty()) {
      wanted = MatchesAnyGlob(info.id, selection.globs);
    } else {
      wanted = preset_ids.empty() || Contains(preset_ids, info.id);
    }
    if (selection.category && info.category != *selection.category) wanted = false;
    if (wanted) selected.push_back(std::move(row));
  }
  if (selected.empty()) throw UsageError("the selection leaves no row to run");
  return selected;
}

}  // namespace refract::suites::ceilings
