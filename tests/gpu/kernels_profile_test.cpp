// `refract kernels --profile`'s choice per tuned row (cli/kernels_profile.h), timing nothing:
// the rows are built, and an entry's configuration compiled once on the shared context to learn
// its kernel files. A fresh exact entry that means something for the row's op rebuilds its row
// with the winner's settings; every other case keeps the built-in default and says why.
#include "cli/kernels_profile.h"

#include <gtest/gtest.h>

#include <functional>

#include "base/adapter_identity.h"
#include "kernels/embedded_kernels.h"
#include "ops/axis.h"
#include "suites/kernels/kernel_benchmark.h"
#include "testing/shared_context.h"

namespace refract::cli {
namespace {

constexpr const char* kKey = "test gpu";
constexpr const char* kProblem = "qwen2.5-0.5b/t1/tuned";

gpu::Context& Device() { return testing::SharedContext(); }

std::string IdentityKey() { return IdentityOf(Device().description()).Key(); }

struct Rows {
  suites::kernels::KernelSelection selection{.kernels = {"rmsnorm"}, .preset = "quick"};
  suites::kernels::CatalogOptions catalog;
  std::vector<std::unique_ptr<bench::Benchmark>> rows =
      suites::kernels::MakeKernelRows(selection, catalog);

  const bench::Benchmark* TunedRow() const {
    for (const auto& row : rows) {
      if (row->info().id == std::string("rmsnorm/") + kProblem) return row.get();
    }
    throw std::runtime_error("no tuned rmsnorm row");
  }
  const bench::BenchmarkInfo& Tuned() const { return TunedRow()->info(); }
  std::vector<ops::Axis> TunedAxes() const {
    for (const auto& row : rows) {
      if (row->info().id == std::string("rmsnorm/") + kProblem) {
        return dynamic_cast<const suites::kernels::KernelBenchmark&>(*row).OpAxes();
      }
    }
    return {};
  }
};

const ops::Settings kWinner = {{"subgroups", 0}, {"vpt", 1}, {"wg", 1024}};

/// The kernel files the tuned row compiles with `settings`.
std::vector<std::string> CompiledWith(const ops::Settings& settings) {
  Rows rows;
  rows.catalog.settings = settings;
  rows.catalog.cold_footprint_bytes = 1;
  rows.rows = suites::kernels::MakeKernelRows(rows.selection, rows.catalog);
  auto* row = const_cast<suites::kernels::KernelBenchmark*>(
      dynamic_cast<const suites::kernels::KernelBenchmark*>(rows.TunedRow()));
  return KernelsCompiled(Device(), *row);
}

/// A store whose one entry is fresh for `rows`: this Dawn, the kernels the winner's
/// configuration compiles and their hash, and the row's axes.
profile::Store FreshStore(const Rows& rows, const std::string& key = IdentityKey()) {
  profile::Entry entry{
      .sweep = "kernel:rmsnorm", .kernel = "rmsnorm", .variant = "tuned", .problem = kProblem};
  entry.winner.params = {kWinner.begin(), kWinner.end()};
  const std::vector<std::string> kernels = CompiledWith(kWinner);
  entry.stamp = {.refract_version = "0.1.0",
                 .dawn_package = REFRACT_DAWN_PACKAGE,
                 .kernels = kernels,
                 .kernel_hash = wgsl::KernelsHash(kernels),
                 .axes = {},
                 .axes_hash = ops::AxesHashOf(rows.TunedAxes()),
                 .measured_at = "2026-12-01T10:00:00Z"};
  return {.profiles = {{.adapter = {.key = key}, .entries = {entry}}}};
}

std::string SourceOf(const bench::BenchmarkInfo& info) {
  return info.params.at(kConfigSourceParam).AsText();
}

TEST(KernelsProfile, AFreshEntryRebuildsItsRowWithTheWinner) {
  // (A row's axes reach its params when it is prepared: the end-to-end test runs one and sees
  // them; here the row must be a new one, built with the winner's settings.)
  Rows rows;
  const bench::Benchmark* before = rows.TunedRow();
  ApplyProfile(FreshStore(rows), Device(), rows.selection, rows.catalog, rows.rows);
  const bench::BenchmarkInfo& tuned = rows.Tuned();
  EXPECT_NE(rows.TunedRow(), before);
  EXPECT_EQ(SourceOf(tuned),
            "profile: the kernel:rmsnorm sweep's winner, measured 2026-12-01T10:00:00Z");
  for (const auto& row : rows.rows) {  // the baseline row is never touched
    if (row->info().id.ends_with("/baseline")) {
      EXPECT_FALSE(row->info().params.contains(kConfigSourceParam));
    }
  }
}

TEST(KernelsProfile, EveryOtherCaseKeepsTheDefaultAndSaysWhy) {
  struct Case {
    std::string name;
    std::function<void(profile::Store&)> change;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"another adapter", [](profile::Store& s) { s.profiles[0].adapter.key = "other"; },
       "built-in default: the profile has no entry of this adapter (1 other adapter)"},
      {"another problem",
       [](profile::Store& s) { s.profiles[0].entries[0].problem = "x/t9/tuned"; },
       "built-in default: no profile entry of this problem"},
      {"kernel changed",
       [](profile::Store& s) { s.profiles[0].entries[0].stamp.kernel_hash = std::string(64, '0'); },
       "built-in default: the profile entry is stale: the kernel source changed"},
      {"axis renamed",
       [](profile::Store& s) { s.profiles[0].entries[0].stamp.axes_hash = std::string(64, '1'); },
       "built-in default: the profile entry is stale: the op's axes changed"},
      {"another Dawn",
       [](profile::Store& s) { s.profiles[0].entries[0].stamp.dawn_package = "dawn@0"; },
       "built-in default: the profile entry is stale: measured with Dawn dawn@0"},
      // Values that mean nothing for the op: refused before anything is compiled.
      {"a value the axis does not allow",
       [](profile::Store& s) { s.profiles[0].entries[0].winner.params["wg"] = 2000; },
       "built-in default: the profile entry is refused: wg 2000 is not allowed (wg must be 1 to "
       "1024)"},
      {"a value the problem cannot run",  // 100 x 1 x 4 < 896: the row would not be kept
       [](profile::Store& s) { s.profiles[0].entries[0].winner.params["wg"] = 100; },
       "built-in default: the profile entry is refused: its configuration cannot run here: "},
      {"a workgroup of 0",
       [](profile::Store& s) { s.profiles[0].entries[0].winner.params["wg"] = 0; },
       "built-in default: the profile entry is refused: wg 0 is not allowed"},
      {"a flag of 2",
       [](profile::Store& s) { s.profiles[0].entries[0].winner.params["subgroups"] = 2; },
       "built-in default: the profile entry is refused: subgroups 2 is not allowed (subgroups "
       "must be 0 or 1)"},
      {"an unknown axis",
       [](profile::Store& s) { s.profiles[0].entries[0].winner.params["tiles"] = 4; },
       "built-in default: the profile entry is refused: no axis named 'tiles' (its axes: "},
      {"no params", [](profile::Store& s) { s.profiles[0].entries[0].winner.params.clear(); },
       "built-in default: the profile entry is refused: no value for the axis "},
      // A stamp that does not describe what the configuration compiles: stale, not fatal.
      {"an unknown kernel in the stamp",
       [](profile::Store& s) { s.profiles[0].entries[0].stamp.kernels = {"no_such_kernel"}; },
       "built-in default: the profile entry is stale: it names the kernels no_such_kernel, its "
       "configuration compiles "},
      {"another kernel's files and hash",
       [](profile::Store& s) {
         s.profiles[0].entries[0].stamp.kernels = {"llm_softmax_tuned"};
         s.profiles[0].entries[0].stamp.kernel_hash = wgsl::KernelsHash({"llm_softmax_tuned"});
       },
       "built-in default: the profile entry is stale: it names the kernels llm_softmax_tuned, "
       "its configuration compiles "},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Rows rows;
    const bench::Benchmark* before = rows.TunedRow();
    profile::Store store = FreshStore(rows);
    c.change(store);
    ApplyProfile(store, Device(), rows.selection, rows.catalog, rows.rows);
    EXPECT_EQ(rows.TunedRow(), before);  // not rebuilt: the built-in default
    EXPECT_EQ(SourceOf(rows.Tuned()).rfind(c.says, 0), 0u) << SourceOf(rows.Tuned());
  }
}

}  // namespace
}  // namespace refract::cli
