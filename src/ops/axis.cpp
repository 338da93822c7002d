#include "ops/axis.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <set>

#include "base/error.h"
#include "refract/profile.h"

namespace refract::ops {

bool Axis::Allows(uint32_t value) const {
  if (!choices.empty()) return std::find(choices.begin(), choices.end(), value) != choices.end();
  return value >= min && value <= max && (!power_of_two || std::has_single_bit(value));
}

std::string Axis::AllowedText() const {
  if (!choices.empty()) {
    std::string text = choices.size() == 2 ? "" : "one of ";
    for (size_t i = 0; i < choices.size(); ++i) {
      if (i > 0) text += choices.size() == 2 ? " or " : ", ";
      text += std::to_string(choices[i]);
    }
    return text;
  }
  const std::string low = std::to_string(min), high = std::to_string(max);
  if (power_of_two) return "a power of two from " + low + " to " + high;
  if (max == min + 1) return low + " or " + high;
  return low + " to " + high;
}

Axis PowerOfTwoAxis(std::string name, std::string meaning, std::string default_rule, uint32_t min,
                    uint32_t max, std::vector<uint32_t> grid, std::vector<uint32_t> quick) {
  return {.name = std::move(name),
          .meaning = std::move(meaning),
          .default_rule = std::move(default_rule),
          .min = min,
          .max = max,
          .power_of_two = true,
          .grid = std::move(grid),
          .quick = std::move(quick)};
}

Axis WorkgroupAxis(std::string default_rule, std::vector<uint32_t> grid,
                   std::vector<uint32_t> quick) {
  return PowerOfTwoAxis("wg", "invocations a workgroup", std::move(default_rule), 32, 1024,
                        std::move(grid), std::move(quick));
}

Axis CountAxis(std::string name, std::string meaning, std::string default_rule, uint32_t max,
               std::vector<uint32_t> grid, std::vector<uint32_t> quick) {
  return {.name = std::move(name),
          .meaning = std::move(meaning),
          .default_rule = std::move(default_rule),
          .min = 1,
          .max = max,
          .grid = std::move(grid),
          .quick = std::move(quick)};
}

Axis FlagAxis(std::string name, std::string meaning, std::string default_rule) {
  return {.name = std::move(name),
          .meaning = std::move(meaning),
          .default_rule = std::move(default_rule),
          .min = 0,
          .max = 1,
          .grid = {0, 1}};
}

uint32_t SettingOr(const Settings& settings, std::string_view name, uint32_t fallback) {
  auto found = settings.find(std::string(name));
  return found == settings.end() ? fallback : found->second;
}

namespace {

// A whole number in [0, 2^32): digits only (no sign, point or exponent).
std::optional<uint32_t> WholeNumber(std::string_view text) {
  if (text.empty() || text.size() > 10) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  if (value > UINT32_MAX) return std::nullopt;
  return static_cast<uint32_t>(value);
}

// The distinct axis names, in table order.
std::string Names(const std::vector<Axis>& axes) {
  std::vector<std::string> names;
  std::string text;
  for (const Axis& axis : axes) {
    if (std::find(names.begin(), names.end(), axis.name) != names.end()) continue;
    names.push_back(axis.name);
    text += (text.empty() ? "" : ", ") + axis.name;
  }
  return text;
}

}  // namespace

Settings ParseSettings(const std::vector<std::string>& pairs, const std::vector<Axis>& axes,
                       std::string_view what) {
  const std::string kernel(what);
  Settings settings;
  for (const std::string& pair : pairs) {
    const size_t equals = pair.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw UsageError("--set takes NAME=VALUE, not '" + pair + "'");
    }
    const std::string name = pair.substr(0, equals);
    const std::string text = pair.substr(equals + 1);
    std::vector<const Axis*> named;
    for (const Axis& axis : axes) {
      if (axis.name == name) named.push_back(&axis);
    }
    if (named.empty()) {
      throw UsageError("--set " + pair + ": " + kernel + " has no tunable axis '" + name + "'" +
                       (axes.empty() ? std::string(" (it has no tunable axes)")
                                     : " (its axes: " + Names(axes) + ")"));
    }
    std::string choices;
    for (const Axis* axis : named)
      choices += (choices.empty() ? "" : ", or ") + axis->AllowedText();
    const std::optional<uint32_t> value = WholeNumber(text);
    if (!value) {
      throw UsageError("--set " + pair + ": " + name + " takes a whole number (" + choices + ")");
    }
    const bool allowed = std::any_of(named.begin(), named.end(),
                                     [&](const Axis* axis) { return axis->Allows(*value); });
    if (!allowed) {
      throw UsageError("--set " + pair + ": " + name + " must be " + choices + " (" +
                       named.front()->meaning + ")");
    }
    if (settings.contains(name)) throw UsageError("--set names " + name + " twice");
    settings[name] = *value;
  }
  return settings;
}

std::optional<std::string> SettingsProblem(const Settings& settings,
                                           const std::vector<Axis>& axes) {
  for (const auto& [name, value] : settings) {
    std::vector<const Axis*> named;
    for (const Axis& axis : axes) {
      if (axis.name == name) named.push_back(&axis);
    }
    if (named.empty()) {
      return "no axis named '" + name + "' (" +
             (axes.empty() ? std::string("the op has no axes") : "its axes: " + Names(axes)) + ")";
    }
    const uint32_t setting = value;  // (a structured binding is not captured before C++20's P1091)
    if (std::none_of(named.begin(), named.end(),
                     [&](const Axis* axis) { return axis->Allows(setting); })) {
      std::string choices;
      for (const Axis* axis : named)
        choices += (choices.empty() ? "" : ", or ") + axis->AllowedText();
      return name + " " + std::to_string(value) + " is not allowed (" + name + " must be " +
             choices + ")";
    }
  }
  for (const Axis& axis : axes) {
    if (!settings.contains(axis.name)) return "no value for the axis '" + axis.name + "'";
  }
  return std::nullopt;
}

std::string SettingsText(const Settings& settings) {
  std::string text;
  for (const auto& [name, value] : settings) {
    text += (text.empty() ? "" : ":") + name + "=" + std::to_string(value);
  }
  return text;
}

std::vector<Settings> GridOf(const std::vector<Axis>& axes, bool quick,
                             const std::map<std::string, std::vector<uint32_t>>& overrides) {
  std::vector<Settings> points = {{}};
  std::set<std::string> seen;
  for (const Axis& axis : axes) {
    if (!seen.insert(axis.name).second) continue;
    std::vector<uint32_t> values = quick && !axis.quick.empty() ? axis.quick : axis.grid;
    if (auto found = overrides.find(axis.name); found != overrides.end()) values = found->second;
    if (values.empty()) continue;  // the op's rule chooses it
    std::vector<Settings> next;
    for (const Settings& point : points) {
      for (uint32_t value : values) {
        Settings with = point;
        with[axis.name] = value;
        next.push_back(std::move(with));
      }
    }
    points = std::move(next);
  }
  return points;
}

std::string AxisNames(const std::vector<Axis>& axes) {
  std::set<std::string> names;
  for (const Axis& axis : axes) names.insert(axis.name);
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ",") + name;
  return text;
}

std::string AxesHashOf(const std::vector<Axis>& axes) {
  std::map<std::string, profile::AxisText> texts;  // a name repeated counts once (its first)
  for (const Axis& axis : axes) {
    texts.emplace(axis.name, profile::AxisText{axis.name, axis.meaning, axis.AllowedText()});
  }
  std::vector<profile::AxisText> list;
  for (auto& [name, text] : texts) list.push_back(std::move(text));
  return profile::AxesHash(std::move(list));
}

}  // namespace refract::ops
