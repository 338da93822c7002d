// Answering a query from a store, merging stores, and the stamps' hashes.
#include <algorithm>
#include <iterator>
#include <cmath>
#include <cstdio>
#include <limits>

#include "refract/profile.h"

namespace refract::profile {
namespace {

std::string Short(const std::string& hash) { return hash.substr(0, 12); }

/// The distance of two shapes with the same dimension names: the sum of |ln(a / b)|; a
/// dimension ≤ 0 is equal only to itself (infinitely far otherwise). Nothing when the names
/// differ.
std::optional<double> ShapeDistance(const std::map<std::string, double>& a,
                                    const std::map<std::string, double>& b) {
  if (a.size() != b.size()) return std::nullopt;
  double distance = 0;
  for (const auto& [name, x] : a) {
    auto found = b.find(name);
    if (found == b.end()) return std::nullopt;
    const double y = found->second;
    if (x == y) continue;
    if (x <= 0 || y <= 0) return std::numeric_limits<double>::infinity();
    distance += std::abs(std::log(x / y));
  }
  return distance;
}

std::string ShapeText(const std::map<std::string, double>& shape) {
  std::string text;
  for (const auto& [name, size] : shape) {
    char number[32];
    std::snprintf(number, sizeof number, "%g", size);
    text += (text.empty() ? "" : ", ") + name + " " + number;
  }
  return text.empty() ? "no dimensions" : text;
}

bool Matches(const Entry& entry, const Query& query) {
  return entry.kernel == query.kernel && (query.variant.empty() || entry.variant == query.variant);
}

}  // namespace

std::optional<std::string> StaleReason(const Entry& entry, const Query& query) {
  const Stamp& stamp = entry.stamp;
  if (!query.dawn_package.empty() && stamp.dawn_package != query.dawn_package) {
    return "measured with Dawn " + stamp.dawn_package + ", this is " + query.dawn_package;
  }
  if (!query.kernel_hash.empty() && stamp.kernel_hash != query.kernel_hash) {
    return "the kernel source changed (hash " + Short(stamp.kernel_hash) + "… then, " +
           Short(query.kernel_hash) + "… now)";
  }
  if (!query.axes_hash.empty() && stamp.axes_hash != query.axes_hash) {
    return "the op's axes changed (a renamed axis, a new meaning or allowed values)";
  }
  return std::nullopt;
}

Answer Lookup(const Store& store, const Query& query) {
  Answer answer;
  const AdapterProfile* profile = nullptr;
  for (const AdapterProfile& candidate : store.profiles) {
    if (candidate.adapter.key == query.adapter_key) profile = &candidate;
  }
  if (profile == nullptr) {
    answer.note = "no profile of this adapter (" + std::to_string(store.profiles.size()) +
                  " other adapter" + (store.profiles.size() == 1 ? "" : "s") + " in the store)";
    return answer;
  }
  const Entry* best = nullptr;
  double best_distance = std::numeric_limits<double>::infinity();
  size_t of_kernel = 0;
  for (const Entry& entry : profile->entries) {
    if (!Matches(entry, query)) continue;
    ++of_kernel;
    if (auto reason = StaleReason(entry, query)) {
      answer.stale.push_back({.problem = entry.problem, .reason = *reason});
      continue;
    }
    if (!query.problem.empty() && entry.problem == query.problem) {
      best = &entry;
      best_distance = 0;
      break;
    }
    const std::optional<double> distance = ShapeDistance(entry.shape, query.shape);
    if (distance && *distance < best_distance) {
      best = &entry;
      best_distance = *distance;
    }
  }
  const std::string what = query.kernel + (query.variant.empty() ? "" : " " + query.variant);
  if (best == nullptr) {
    if (of_kernel == 0) {
      answer.note = "no entry of " + what + " in this adapter's profile";
    } else if (answer.stale.size() == of_kernel) {
      answer.note = "every entry of " + what + " is stale";
    } else {
      answer.note = "no entry of " + what + " with the dimensions " + ShapeText(query.shape);
    }
    return answer;
  }
  answer.entry = best;
  answer.exact = best_distance == 0;
  if (query.default_limits && !best->winner_default_limits) {
    answer.note =
        "no configuration within WebGPU's default limits was measured at " + best->problem;
    return answer;
  }
  answer.choice = query.default_limits ? *best->winner_default_limits : best->winner;
  answer.note = answer.exact
                    ? "swept at " + best->problem
                    : "nearest swept shape: " + best->problem + " (" + ShapeText(best->shape) + ")";
  return answer;
}

std::optional<std::string> ReplacementProblem(const Entry& older, const Entry& newer) {
  const Stamp& a = older.stamp;
  const Stamp& b = newer.stamp;
  if (a.dawn_package != b.dawn_package || a.kernel_hash != b.kernel_hash ||
      a.axes_hash != b.axes_hash) {
    return std::nullopt;  // measured on other kernels, axes or Dawn: the older one is stale
  }
  if (!older.grid) {
    return std::string("its winner's grid is not recorded (a schema-1 store): it may have been "
                       "chosen from more configurations");
  }
  std::vector<std::string> missing;
  const std::vector<std::string> none;
  const std::vector<std::string>& had = newer.grid ? *newer.grid : none;
  std::set_difference(older.grid->begin(), older.grid->end(), had.begin(), had.end(),
                      std::back_inserter(missing));
  if (missing.empty()) return std::nullopt;
  return "its winner was chosen from " + std::to_string(older.grid->size()) +
         " configurations, " + std::to_string(missing.size()) + " of which the newer run did not "
         "time (" + missing.front() + (missing.size() > 1 ? ", …" : "") + ")";
}

Store Merge(const Store& base, const Store& incoming, std::vector<std::string>* notes) {
  Store merged = base;
  auto say = [&](std::string line) {
    if (notes != nullptr) notes->push_back(std::move(line));
  };
  for (const AdapterProfile& profile : incoming.profiles) {
    auto into =
        std::find_if(merged.profiles.begin(), merged.profiles.end(),
                     [&](const AdapterProfile& p) { return p.adapter.key == profile.adapter.key; });
    if (into == merged.profiles.end()) {
      merged.profiles.push_back(profile);
      say("added the profile of " + profile.adapter.key + " (" +
          std::to_string(profile.entries.size()) + " entries)");
      continue;
    }
    for (const Entry& entry : profile.entries) {
      auto same = std::find_if(into->entries.begin(), into->entries.end(), [&](const Entry& e) {
        return e.kernel == entry.kernel && e.variant == entry.variant && e.problem == entry.problem;
      });
      const std::string what = entry.kernel + " " + entry.variant + " at " + entry.problem +
                               " on " + profile.adapter.key;
      if (same == into->entries.end()) {
        into->entries.push_back(entry);
        say("added " + what);
      } else if (entry.stamp.measured_at > same->stamp.measured_at) {
        if (const std::optional<std::string> problem = ReplacementProblem(*same, entry)) {
          say("kept " + what + ": the newer entry (" + entry.stamp.measured_at +
              ") may not replace it: " + *problem);
          continue;
        }
        say("replaced " + what + ": measured " + entry.stamp.measured_at + ", newer than " +
            same->stamp.measured_at);
        *same = entry;
      } else {
        say("kept " + what + ": measured " + same->stamp.measured_at + ", not older than " +
            entry.stamp.measured_at);
      }
    }
  }
  return merged;
}

std::string AdapterKeyOf(const Adapter& a) {
  auto hex4 = [](uint32_t value) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%04x", value);
    return std::string(text);
  };
  std::string key = a.vendor;
  if (!a.architecture.empty()) key += " " + a.architecture;
  return key + " / " + a.device + " (" + hex4(a.vendor_id) + ":" + hex4(a.device_id) + ") / " +
         a.driver + " / " + a.backend + " / subgroups " + std::to_string(a.subgroup_min_size) +
         "-" + std::to_string(a.subgroup_max_size);
}

std::string KernelHash(std::vector<KernelText> kernels) {
  std::sort(kernels.begin(), kernels.end(),
            [](const KernelText& a, const KernelText& b) { return a.name < b.name; });
  std::string text;
  for (const KernelText& kernel : kernels) {
    text += kernel.name + "\n" + std::to_string(kernel.text.size()) + "\n" + kernel.text;
  }
  return Sha256Hex(text);
}

std::string AxesHash(std::vector<AxisText> axes) {
  std::sort(axes.begin(), axes.end(),
            [](const AxisText& a, const AxisText& b) { return a.name < b.name; });
  std::string text;
  for (const AxisText& axis : axes)
    text += axis.name + "\n" + axis.meaning + "\n" + axis.allowed + "\n";
  return Sha256Hex(text);
}

}  // namespace refract::profile
