#include "suites/sweeps/sweep_profile.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "suites/sweeps/sweep_review.h"

namespace refract::suites::sweeps {
namespace {

/// The params that are a problem's dimensions when they are numbers and no axis of the op.
const std::set<std::string>& DimensionNames() {
  static const std::set<std::string> names = {
      "m",     "n",     "k",     "t",    "s",        "heads",   "kv_heads", "head_dim", "hidden",
      "width", "count", "vocab", "rows", "row_size", "vectors", "d",        "bytes"};
  return names;
}

std::string TextParam(const results::ResultRow& row, const char* name) {
  auto found = row.params.find(name);
  return found != row.params.end() && found->second.IsText() ? found->second.AsText() : "";
}

std::optional<double> NumberParam(const results::ResultRow& row, const std::string& name) {
  auto found = row.params.find(name);
  if (found == row.params.end()) return std::nullopt;
  if (found->second.IsInteger()) return static_cast<double>(found->second.AsInteger());
  if (found->second.IsReal()) return found->second.AsReal();
  return std::nullopt;
}

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

bool Timed(const results::ResultRow& row) {
  return row.status == results::RowStatus::kOk && std::isfinite(row.stats.median) &&
         row.stats.median > 0;
}

std::optional<double> Finite(double value) {
  return std::isfinite(value) ? std::optional<double>(value) : std::nullopt;
}

std::optional<double> Ratio(const results::ResultRow* slower, const results::ResultRow& winner) {
  if (slower == nullptr || !Timed(*slower)) return std::nullopt;
  return slower->stats.median / winner.stats.median;
}

/// `winner` (picked with `margin` over its runner-up) as a choice.
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
  for (const std::string& axis : SplitNames(TextParam(winner, kAxesParam))) {
    if (auto value = NumberParam(winner, axis); value && *value >= 0) {
      choice.params[axis] = static_cast<uint32_t>(*value);
    }
  }
  return choice;
}

}  // namespace

std::vector<profile::Entry> EntriesOf(const std::vector<results::ResultRow>& rows,
                                      const std::string& measured_at,
                                      std::vector<std::string>& notes) {
  std::map<std::string, std::vector<const results::ResultRow*>> by_category;
  std::vector<std::string> order;
  for (const results::ResultRow& row : rows) {
    if (TextParam(row, "sweep").empty()) continue;
    if (!by_category.contains(row.category)) order.push_back(row.category);
    by_category[row.category].push_back(&row);
  }
  std::vector<profile::Entry> entries;
  for (const std::string& category : order) {
    const auto& members = by_category[category];
    const results::ResultRow* fallback = nullptr;
    const results::ResultRow* seed = nullptr;
    // An entry holds configurations of the problem's own op: the variant of its built-in
    // default row (a seed row of another kernel, the baseline, is a reference, never the entry).
    std::string variant;
    for (const results::ResultRow* row : members) {
      if (TextParam(*row, "role") == kRoleDefault) variant = TextParam(*row, "variant");
    }
    std::vector<tune::Trial> trials;
    for (const results::ResultRow* row : members) {
      tune::Trial trial = TrialOf(*row, TextParam(*row, "main_axis"));
      if (!variant.empty() && TextParam(*row, "variant") != variant) {
        trial.outcome = tune::TrialOutcome::kRejected;  // another kernel: not a candidate
      }
      trials.push_back(std::move(trial));
      if (!Timed(*row)) continue;
      if (TextParam(*row, "role") == kRoleDefault) fallback = row;
      if (TextParam(*row, "role") == kRoleSeed) seed = row;
    }
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
    // Only problems the review gave winners (not the bandwidth sweep's sizes); the same pick.
    if (std::none_of(members.begin(), members.end(),
                     [](const results::ResultRow* row) { return HasFlag(*row, kWinnerFlag); })) {
      continue;
    }
    const tune::Winners winners = tune::PickWinners(trials);
    if (!winners.overall) continue;
    const results::ResultRow* winner = members[winners.overall->trial];
    const std::string kernel_hash = TextParam(*winner, kKernelHashParam);
    const std::string axes_hash = TextParam(*winner, kAxesHashParam);
    if (kernel_hash.empty() || axes_hash.empty()) {
      notes.push_back(category + ": left out of the profile: its winner " + winner->id +
                      " has no kernel or axes stamp (measured by an older refract?)");
      continue;
    }
    profile::Entry entry;
    entry.sweep = TextParam(*winner, "sweep");
    entry.kernel =
        TextParam(*winner, "kernel").empty() ? entry.sweep : TextParam(*winner, "kernel");
    entry.variant = TextParam(*winner, "variant").empty() ? "tuned" : TextParam(*winner, "variant");
    entry.problem = TextParam(*winner, "problem");
    const std::vector<std::string> axes = SplitNames(TextParam(*winner, kAxesParam));
    for (const auto& [name, value] : winner->params) {
      if (!DimensionNames().contains(name) ||
          std::find(axes.begin(), axes.end(), name) != axes.end()) {
        continue;
      }
      if (auto number = NumberParam(*winner, name)) entry.shape[name] = *number;
    }
    entry.winner = ChoiceOf(*winner, winners.overall->margin, fallback, seed);
    if (const auto& within = winners.within_default_limits) {
      entry.winner_default_limits =
          ChoiceOf(*members[within->trial], within->margin, fallback, seed);
    }
    for (const results::ResultRow* row : members) {
      if (!HasFlag(*row, kCliffFlag)) continue;
      const std::string axis = TextParam(*row, "main_axis");
      if (auto at = NumberParam(*row, axis)) {
        entry.cliffs.push_back({.axis = axis, .at = *at, .reason = ReasonOf(*row, kCliffFlag)});
      }
    }
    std::vector<std::string> grid;  // the candidates: rows of the op's variant
    for (const results::ResultRow* row : members) {
      if (variant.empty() || TextParam(*row, "variant") == variant) {
        grid.push_back(row->id.size() > category.size() ? row->id.substr(category.size() + 1)
                                                        : row->id);
      }
    }
    std::sort(grid.begin(), grid.end());
    grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
    entry.grid = std::move(grid);
    entry.stamp = {.refract_version = REFRACT_VERSION,
                   .dawn_package = REFRACT_DAWN_PACKAGE,
                   .kernels = SplitNames(TextParam(*winner, kKernelsParam)),
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
