#include "tune/sweep_analysis.h"

#include <fmt/format.h>

#include <cmath>
#include <map>

namespace refract::tune {
namespace {

bool Timed(const Trial& trial) {
  return trial.outcome == TrialOutcome::kMeasured && std::isfinite(trial.median_ms) &&
         trial.median_ms > 0;
}

// The fastest of the timed trials that `keep` accepts, with its margin and speed-up.
template <typename Keep>
std::optional<Winner> Fastest(const std::vector<Trial>& trials,
                              const std::optional<ops::Settings>& reference, Keep keep) {
  std::optional<size_t> best, second;
  double reference_ms = kNoValue;
  for (size_t i = 0; i < trials.size(); ++i) {
    const Trial& trial = trials[i];
    if (!Timed(trial)) continue;
    if (reference && trial.settings == *reference) reference_ms = trial.median_ms;
    if (!keep(trial)) continue;
    if (!best || trial.median_ms < trials[*best].median_ms) {
      second = best;
      best = i;
    } else if (!second || trial.median_ms < trials[*second].median_ms) {
      second = i;
    }
  }
  if (!best) return std::nullopt;
  const double winner_ms = trials[*best].median_ms;
  return Winner{.trial = *best,
                .margin = second ? trials[*second].median_ms / winner_ms - 1 : kNoValue,
                .speedup_over_reference = reference_ms / winner_ms};
}

}  // namespace

Winners PickWinners(const std::vector<Trial>& trials,
                    const std::optional<ops::Settings>& reference) {
  return {.overall = Fastest(trials, reference, [](const Trial&) { return true; }),
          .within_default_limits = Fastest(
              trials, reference, [](const Trial& trial) { return trial.within_default_limits; })};
}

std::vector<Cliff> FindCliffs(const std::vector<Trial>& trials, const CliffOptions& options) {
  std::map<double, double> best;  // x → the best rate measured there
  for (const Trial& trial : trials) {
    if (!Timed(trial) || !std::isfinite(trial.rate) || trial.rate <= 0) continue;
    auto [it, added] = best.emplace(trial.x, trial.rate);
    if (!added && trial.rate > it->second) it->second = trial.rate;
  }
  std::vector<Cliff> cliffs;
  double highest = 0, highest_x = 0;
  bool below = false;
  for (const auto& [x, rate] : best) {
    const bool now_below = highest > 0 && rate < options.threshold * highest;
    if (now_below && !below) {
      Cliff cliff{.x = x, .before_x = highest_x, .depth = rate / highest};
      if (options.cache_bytes && x > *options.cache_bytes && highest_x <= *options.cache_bytes) {
        cliff.cause = fmt::format("the working set left the {:.0f} MiB cache",
                                  *options.cache_bytes / (1 << 20));
      }
      cliffs.push_back(cliff);
    }
    below = now_below;
    if (rate > highest) {
      highest = rate;
      highest_x = x;
    }
  }
  return cliffs;
}

}  // namespace refract::tune
