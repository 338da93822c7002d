// A reviewed sweep's rows as profile entries, and a run's entries into a store that holds other
// adapters' and other problems' entries.
#include <gtest/gtest.h>

#include <tuple>

#include "suites/sweeps/sweep_profile.h"
#include "suites/sweeps/sweep_review.h"

namespace refract::suites::sweeps {
namespace {

using results::ResultRow;
using results::RowStatus;

ResultRow Row(const std::string& problem, const std::string& label, const std::string& role,
              int64_t wg, double median_ms, bool over_limits = false) {
  ResultRow row{.id = "reduction/" + problem + "/" + label,
                .category = "reduction/" + problem,
                .status = RowStatus::kOk};
  row.params = {{"sweep", "reduction"},
                {"problem", problem},
                {"role", role},
                {"main_axis", "wg"},
                {"wg", wg},
                {"items", 4},
                {"count", 4194304},
                {"dims", "count"},
                {kAxesParam, "items,wg"},
                {kAxesHashParam, "ah"},
                {kKernelsParam, "sum_reduce"},
                {kKernelHashParam, "kh"}};
  if (over_limits) row.params["over_default_limits"] = "wg 1024 is over 256";
  row.stats.median = median_ms;
  row.stats.p10 = median_ms * 0.9;
  row.stats.p90 = median_ms * 1.1;
  row.work_per_dispatch = 1e6;
  return row;
}

/// `rows` reviewed, and the entries of what the review found.
struct Reviewed {
  explicit Reviewed(std::vector<ResultRow> reviewed)
      : rows(std::move(reviewed)),
        review(ReviewSweepRows(rows, {{"reduction", {.main_axis = "wg"}}})) {}
  std::vector<profile::Entry> Entries(std::vector<std::string>& notes) const {
    return EntriesOf(rows, review, "2026-12-01T10:00:00Z", notes);
  }
  std::vector<ResultRow> rows;
  SweepReview review;
};

TEST(SweepProfile, AProblemsWinnersBecomeOneEntryWithItsStamp) {
  const Reviewed reviewed(
      {Row("sum", "items=4:wg=64", "grid", 64, 2.0), Row("sum", "items=4:wg=256", "grid", 256, 1.0),
       Row("sum", "items=4:wg=1024", "grid", 1024, 0.5, true),
       Row("sum", "default", "default", 128, 1.5), Row("sum", "seed", "seed", 64, 3.0)});
  std::vector<std::string> notes;
  const auto entries = reviewed.Entries(notes);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_TRUE(notes.empty());
  const profile::Entry& e = entries.front();
  EXPECT_EQ(e.sweep, "reduction");
  EXPECT_EQ(e.kernel, "reduction");  // no kernel param: the sweep's own op
  EXPECT_EQ(e.variant, "tuned");
  EXPECT_EQ(e.problem, "sum");
  EXPECT_EQ(e.shape, (std::map<std::string, double>{{"count", 4194304}}));  // axes are not shape
  // Overall: wg 1024 (over the default limits); within them: wg 256.
  EXPECT_EQ(e.winner.params, (std::map<std::string, uint32_t>{{"items", 4}, {"wg", 1024}}));
  EXPECT_DOUBLE_EQ(e.winner.median_ms, 0.5);
  EXPECT_DOUBLE_EQ(*e.winner.runner_up_margin, 1.0);  // the next, 1.0 ms, is 100 % slower
  EXPECT_DOUBLE_EQ(*e.winner.over_default, 3.0);
  EXPECT_DOUBLE_EQ(*e.winner.over_seed, 6.0);
  ASSERT_TRUE(e.winner_default_limits);
  EXPECT_EQ(e.winner_default_limits->params.at("wg"), 256u);
  EXPECT_DOUBLE_EQ(*e.winner_default_limits->runner_up_margin, 0.5);
  EXPECT_EQ(e.stamp.kernels, std::vector<std::string>{"sum_reduce"});
  EXPECT_EQ(e.stamp.kernel_hash, "kh");
  EXPECT_EQ(e.stamp.axes, (std::vector<std::string>{"items", "wg"}));
  EXPECT_EQ(e.stamp.measured_at, "2026-12-01T10:00:00Z");
  EXPECT_EQ(e.stamp.dawn_package, REFRACT_DAWN_PACKAGE);
  // Chosen from every configuration of the op that ran, by label, in name order.
  EXPECT_EQ(e.grid, (std::vector<std::string>{"default", "items=4:wg=1024", "items=4:wg=256",
                                              "items=4:wg=64", "seed"}));
  // The entry is a valid store's entry.
  const profile::Store store{.profiles = {{.adapter = {.key = "gpu"}, .entries = entries}}};
  EXPECT_EQ(profile::ParseStore(profile::StoreToJson(store)), store);
}

// In a `--kernel` sweep the seed row is the baseline kernel: when it is the fastest, the entry
// still holds the tuned op's best configuration, and says the seed was faster.
TEST(SweepProfile, AFasterSeedOfAnotherKernelIsAReferenceNotTheEntry) {
  std::vector<ResultRow> rows = {
      Row("sum", "items=4:wg=64", "grid", 64, 2.0), Row("sum", "items=4:wg=256", "grid", 256, 1.5),
      Row("sum", "default", "default", 256, 1.5), Row("sum", "seed", "seed", 64, 1.0)};
  rows[3].params["variant"] = "baseline";
  for (int i = 0; i < 3; ++i) rows[i].params["variant"] = "tuned";
  const Reviewed reviewed(rows);
  // The review names the op's fastest configuration the winner, not the faster seed of another
  // kernel: the flags and the entry are one pick.
  EXPECT_TRUE(reviewed.rows[3].flags.empty());
  ASSERT_EQ(reviewed.rows[1].flags.front(), "winner");
  std::vector<std::string> notes;
  const auto entries = reviewed.Entries(notes);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].variant, "tuned");
  EXPECT_EQ(entries[0].winner.row, "reduction/sum/items=4:wg=256");
  // The seed row is another kernel: no configuration the winner was chosen from.
  EXPECT_EQ(entries[0].grid, (std::vector<std::string>{"default", "items=4:wg=256",
                                                       "items=4:wg=64"}));
  EXPECT_DOUBLE_EQ(*entries[0].winner.over_seed, 1.0 / 1.5);  // the seed was faster
}

TEST(SweepProfile, AWinnerWithoutAStampIsLeftOutAndSaidSo) {
  std::vector<ResultRow> rows = {Row("sum", "items=4:wg=64", "grid", 64, 2.0)};
  rows[0].params.erase(kKernelHashParam);
  std::vector<std::string> notes;
  EXPECT_TRUE(Reviewed(rows).Entries(notes).empty());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("no kernel or axes stamp"), std::string::npos) << notes[0];
}

TEST(SweepProfile, AProblemWhoseGridDidNotRunWholeIsLeftOut) {
  std::vector<ResultRow> rows = {Row("sum", "items=4:wg=64", "grid", 64, 2.0),
                                 Row("sum", "items=4:wg=256", "grid", 256, 1.0)};
  rows[1].status = RowStatus::kSkipped;
  rows[1].message = "not run: the sweep's budget of 1 min was spent after 1 of 2 configurations";
  std::vector<std::string> notes;
  EXPECT_TRUE(Reviewed(rows).Entries(notes).empty());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("1 of 2 configurations did not run"), std::string::npos) << notes[0];
}

profile::Entry EntryOf(const std::string& problem, uint32_t wg, std::vector<std::string> grid) {
  profile::Entry e{
      .sweep = "reduction", .kernel = "reduction", .variant = "tuned", .problem = problem};
  e.winner.params = {{"wg", wg}};
  e.stamp.kernel_hash = "kh";
  e.grid = std::move(grid);
  return e;
}

TEST(SweepProfile, ARunReplacesOnlyItsAdaptersEntriesOfTheProblemsItSwept) {
  const std::vector<std::string> grid = {"wg=128", "wg=256", "wg=512", "wg=64"};
  auto entry = [&](const std::string& problem, uint32_t wg) { return EntryOf(problem, wg, grid); };
  const profile::Adapter ours{.key = "ours"};
  const profile::Adapter theirs{.key = "theirs"};
  const profile::Store before{
      .profiles = {{.adapter = theirs, .entries = {entry("sum", 64)}},
                   {.adapter = ours, .entries = {entry("sum", 128), entry("big", 512)}}}};
  std::vector<std::string> notes;
  const profile::Store after =
      WithEntries(before, ours, {entry("sum", 256), entry("new", 32)}, false, notes);
  EXPECT_TRUE(notes.empty());
  ASSERT_EQ(after.profiles.size(), 2u);
  EXPECT_EQ(after.profiles[0], before.profiles[0]);  // another adapter: untouched
  const auto& mine = after.profiles[1].entries;
  ASSERT_EQ(mine.size(), 3u);
  EXPECT_EQ(mine[0].winner.params.at("wg"), 256u);  // replaced
  EXPECT_EQ(mine[1].winner.params.at("wg"), 512u);  // not swept this time: kept
  EXPECT_EQ(mine[2].problem, "new");
  const profile::Store fresh = WithEntries({}, ours, {entry("sum", 8)}, false, notes);
  ASSERT_EQ(fresh.profiles.size(), 1u);
  EXPECT_EQ(fresh.profiles[0].adapter.key, "ours");
}

// A store never gets worse because a run looked at less (a --filter, the quick grid).
TEST(SweepProfile, ARunThatTimedFewerConfigurationsKeepsTheStoresWinner) {
  const profile::Adapter ours{.key = "ours"};
  const profile::Store before{
      .profiles = {{.adapter = ours,
                    .entries = {EntryOf("sum", 256, {"default", "wg=256", "wg=64"})}}}};
  const profile::Entry filtered = EntryOf("sum", 64, {"wg=64"});
  std::vector<std::string> notes;
  profile::Store after = WithEntries(before, ours, {filtered}, false, notes);
  EXPECT_EQ(after, before);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("chosen from 3 configurations, 2 of which"), std::string::npos)
      << notes[0];
  EXPECT_NE(notes[0].find("--replace"), std::string::npos) << notes[0];
  // The same grid or a larger one replaces it; so does --replace; so does an entry of other
  // kernels (the store's is stale for what this refract runs).
  for (const auto& [grid, replace, hash] :
       std::vector<std::tuple<std::vector<std::string>, bool, std::string>>{
           {{"default", "wg=256", "wg=64"}, false, "kh"},
           {{"default", "wg=1024", "wg=256", "wg=64"}, false, "kh"},
           {{"wg=64"}, true, "kh"},
           {{"wg=64"}, false, "another kernel hash"}}) {
    profile::Entry newer = EntryOf("sum", 64, grid);
    newer.stamp.kernel_hash = hash;
    notes.clear();
    after = WithEntries(before, ours, {newer}, replace, notes);
    EXPECT_TRUE(notes.empty()) << notes.front();
    EXPECT_EQ(after.profiles[0].entries[0].winner.params.at("wg"), 64u);
  }
  // An entry of a schema-1 store records no grid: only --replace or other kernels replace it.
  profile::Store old = before;
  old.profiles[0].entries[0].grid.reset();
  notes.clear();
  EXPECT_EQ(WithEntries(old, ours, {EntryOf("sum", 64, {"default", "wg=256", "wg=64"})}, false,
                        notes),
            old);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("not recorded"), std::string::npos) << notes[0];
}

}  // namespace
}  // namespace refract::suites::sweeps
