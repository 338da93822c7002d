#include "suites/sweeps/sweep_profile.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "results/row_identity.h"
#include "suites/sweeps/sweep_review.h"

namespace refract::suites::sweeps {
namespace {

bool HasFlag(const results::ResultRow& row, const std::string& flag) {
  return std::find(row.flags.begin(), row.flags.end(), flag) != row.flags.end();
}

/// The reason given with `flag`, without the flag's name in front.
std::string ReasonOf(const results::ResultRow& row, const std::string& flag) {
  const std::string prefix = flag + ": ";
  for (const std::string& reason : row.flag_reasons) {
    if (reason.rfind(prefix, 0) == 0) return reason.substr(prefix.size());
  }
  return "";
}

std::optional<double> Finite(double value) {
  return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

std::optional<double> Ratio(const results::ResultRow* slower, const results::ResultRow& winner) {
  if (slower == nullptr) return std::nullopt;
  return slower->stats.median / winner.stats.median;
}

/// `winner` (picked with `margin` over its runner-up) as a choice: its axes' values, its times.
profile::Choice ChoiceOf(const results::ResultRow& winner, double margin,
                         const results::ResultRow* fallback, const results::ResultRow* seed) {
  profile::Choice choice{.params = {},
                         .row = winner.id,
                         .median_ms = winner.stats.median,
                         .p10_ms = std::min(winner.stats.p10, winner.stats.median),
                         .p90_ms = std::max(winner.stats.p90, winner.stats.median),
                         .runner_up_margin = Finite(margin),
                         .over_default = Ratio(fallback, winner),
                         .over_seed = Ratio(seed, winner)};
  for (const std::string& axis : SplitNames(results::TextOf(winner.params, kAxesParam))) {
    if (auto value = results::NumberOf(winner.params, axis); value && *value >= 0) {
      choice.params[axis] = static_cast<uint32_t>(*value);
    }
  }
  return choice;
}

}  // namespace

std::vector<profile::Entry> EntriesOf(const std::vector<results::ResultRow>& rows,
                                      const SweepReview& review, const std::string& measured_at,
                                      std::vector<std::string>& notes) {
  std::map<std::string, const results::ResultRow*> by_id;
  std::map<std::string, std::vector<const results::ResultRow*>> by_category;
  for (const results::ResultRow& row : rows) {
    by_id[row.id] = &row;
    by_category[row.category].push_back(&row);
  }
  auto row_of = [&](const std::string& id) -> const results::ResultRow* {
    auto found = by_id.find(id);
    return id.empty() || found == by_id.end() ? nullptr : found->second;
  };
  std::vector<profile::Entry> entries;
  for (const auto& [category, winners] : review.problems) {
    const auto& members = by_category[category];
    // A problem whose grid did not run whole (interrupted, a budget spent) is no profile's:
    // its winner is only the best of what ran.
    const auto not_run =
        std::count_if(members.begin(), members.end(), [](const results::ResultRow* row) {
          return row->status == results::RowStatus::kSkipped && DidNotRun(*row);
        });
    if (not_run > 0) {
      notes.push_back(category + ": left out of the profile: " + std::to_string(not_run) + " of " +
                      std::to_string(members.size()) +
                      " configurations did not run (--resume finishes the grid)");
      continue;
    }
    const results::ResultRow* winner = row_of(winners.winner);
    if (winner == nullptr) continue;
    const std::string kernel_hash = results::TextOf(winner->params, kKernelHashParam);
    const std::string axes_hash = results::TextOf(winner->params, kAxesHashParam);
    if (kernel_hash.empty() || axes_hash.empty()) {
      notes.push_back(category + ": left out of the profile: its winner " + winner->id +
                      " has no kernel or axes stamp (measured by an older refract?)");
      continue;
    }
    const results::RowIdentity identity = results::IdentityOf(winner->params);
    const results::ResultRow* fallback = row_of(winners.fallback);
    const results::ResultRow* seed = row_of(winners.seed);
    profile::Entry entry;
    entry.sweep = identity.sweep;
    entry.kernel = identity.kernel.empty() ? identity.sweep : identity.kernel;
    entry.variant = identity.variant.empty() ? "tuned" : identity.variant;
    entry.problem = identity.problem;
    const std::vector<std::string> axes = SplitNames(results::TextOf(winner->params, kAxesParam));
    for (const std::string& name : identity.dimensions) {
      if (std::find(axes.begin(), axes.end(), name) != axes.end()) continue;
      if (auto number = results::NumberOf(winner->params, name)) entry.shape[name] = *number;
    }
    entry.winner = ChoiceOf(*winner, winners.margin, fallback, seed);
    if (const results::ResultRow* within = row_of(winners.within_default_limits)) {
      entry.winner_default_limits = ChoiceOf(*within, winners.within_margin, fallback, seed);
    }
    for (const results::ResultRow* row : members) {
      if (!HasFlag(*row, kCliffFlag)) continue;
      const std::string axis = results::TextOf(row->params, "main_axis");
      if (auto at = results::NumberOf(row->params, axis)) {
        entry.cliffs.push_back({.axis = axis, .at = *at, .reason = ReasonOf(*row, kCliffFlag)});
      }
    }
    std::vector<std::string> grid;  // the candidates by label (the id after the category)
    for (const std::string& id : winners.candidates) {
      grid.push_back(id.size() > category.size() ? id.substr(category.size() + 1) : id);
    }
    std::sort(grid.begin(), grid.end());
    grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
    entry.grid = std::move(grid);
    entry.stamp = {.refract_version = REFRACT_VERSION,
                   .dawn_package = REFRACT_DAWN_PACKAGE,
                   .kernels = SplitNames(results::TextOf(winner->params, kKernelsParam)),
                   .kernel_hash = kernel_hash,
                   .axes = axes,
                   .axes_hash = axes_hash,
                   .measured_at = measured_at};
    entries.push_back(std::move(entry));
  }
  return entries;
}

profile::Adapter AdapterOf(const AdapterIdentity& identity) {
  return {.key = identity.Key(),
          .vendor = identity.vendor,
          .architecture = identity.architecture,
          .device = identity.device,
          .vendor_id = identity.vendor_id,
          .device_id = identity.device_id,
          .driver = identity.driver,
          .backend = identity.backend,
          .subgroup_min_size = identity.subgroup_min_size,
          .subgroup_max_size = identity.subgroup_max_size};
}

profile::Store WithEntries(profile::Store store, const profile::Adapter& adapter,
                           const std::vector<profile::Entry>& entries, bool replace,
                           std::vector<std::string>& notes) {
  auto profile =
      std::find_if(store.profiles.begin(), store.profiles.end(),
                   [&](const profile::AdapterProfile& p) { return p.adapter.key == adapter.key; });
  if (profile == store.profiles.end()) {
    store.profiles.push_back({.adapter = adapter, .entries = {}});
    profile = store.profiles.end() - 1;
  }
  profile->adapter = adapter;
  for (const profile::Entry& entry : entries) {
    auto same = std::find_if(profile->entries.begin(), profile->entries.end(),
                             [&](const profile::Entry& e) {
                               return e.kernel == entry.kernel && e.variant == entry.variant &&
                                      e.problem == entry.problem;
                             });
    if (same == profile->entries.end()) {
      profile->entries.push_back(entry);
      continue;
    }
    if (!replace) {
      if (const std::optional<std::string> problem = profile::ReplacementProblem(*same, entry)) {
        notes.push_back(entry.problem + ": the store's entry (measured " +
                        same->stamp.measured_at + ") is kept: " + *problem +
                        " (--replace replaces it)");
        continue;
      }
    }
    *same = entry;
  }
  return store;
}

}  // namespace refract::suites::sweeps
