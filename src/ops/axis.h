// The tunable knobs of an op as data: each axis's name, meaning, default rule, allowed values and
// the grid a sweep tries; a configuration's values by axis name (Settings); `--set NAME=VALUE`
// parsed and checked against a table once; and AxisTable, which ties the axes to the fields of
// an op's typed configuration so that nothing lists them twice.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace refract::ops {

/// A configuration's values by axis name. Every axis value is a whole number (a flag is 0 or 1).
using Settings = std::map<std::string, uint32_t>;

/// One tunable knob of an op. Names are lower snake case, the same spelling in every family
/// ("wg" is always the invocations of a workgroup); docs/KERNELS.md lists them.
struct Axis {
  std::string name;
  std::string meaning;       ///< what the value is, with its unit
  std::string default_rule;  ///< how the op chooses it when nothing is set
  uint32_t min = 1;          ///< the allowed values: min..max,
  uint32_t max = 1;
  bool power_of_two = false;      ///< only the powers of two among them,
  std::vector<uint32_t> choices;  ///< or, when not empty, exactly these
  std::vector<uint32_t> grid;     ///< the values a sweep tries, in order (each allowed)
  std::vector<uint32_t> quick;    ///< a quick sweep's values (a few of grid's); empty: grid's

  bool Allows(uint32_t value) const;
  /// "1 to 8", "a power of two from 32 to 1024", "0 or 1", "one of 0, 4".
  std::string AllowedText() const;
};

/// A power of two from `min` to `max` (workgroup sizes, tiles, row groups).
Axis PowerOfTwoAxis(std::string name, std::string meaning, std::string default_rule, uint32_t min,
                    uint32_t max, std::vector<uint32_t> grid, std::vector<uint32_t> quick = {});
/// `wg`, the invocations of a workgroup: a power of two from 32 to 1024.
Axis WorkgroupAxis(std::string default_rule = "256",
                   std::vector<uint32_t> grid = {64, 128, 256, 512},
                   std::vector<uint32_t> quick = {64, 256});
/// A count from 1 to `max` (rows, elements or heads an invocation takes).
Axis CountAxis(std::string name, std::string meaning, std::string default_rule, uint32_t max,
               std::vector<uint32_t> grid, std::vector<uint32_t> quick = {});
/// A choice between two ways, 0 or 1.
Axis FlagAxis(std::string name, std::string meaning, std::string default_rule);

/// `name`'s value in `settings`, or `fallback`.
uint32_t SettingOr(const Settings& settings, std::string_view name, uint32_t fallback);

/// The pairs NAME=VALUE (`--set`) checked against `axes` (every axis the kernel's ops declare;
/// an axis name may appear more than once, and a value passes if any of them allows it): an
/// unknown name (listing the known ones), a value that is not a whole number, or one no axis of
/// that name allows (naming the allowed values) throws UsageError. `what` names the kernel in
/// messages.
Settings ParseSettings(const std::vector<std::string>& pairs, const std::vector<Axis>& axes,
                       std::string_view what);

/// Why `settings` cannot configure an op of `axes`, or nothing: a name that is no axis of it
/// (the known ones listed), an axis with no value, or a value none of the axes of that name
/// allows (naming what they allow). What a profile entry's winner must pass before it runs.
std::optional<std::string> SettingsProblem(const Settings& settings, const std::vector<Axis>& axes);

/// The product of `axes`' grids (with `quick`, their quick values where they have some), the
/// last axis fastest, as Settings; `overrides` replaces an axis's values by name, and an axis
/// left with no values is not set (its op's default rule chooses it). A name repeated in `axes`
/// counts once.
std::vector<Settings> GridOf(const std::vector<Axis>& axes, bool quick,
                             const std::map<std::string, std::vector<uint32_t>>& overrides = {});

/// The names of `axes`, each once, in name order, joined by ','.
std::string AxisNames(const std::vector<Axis>& axes);

/// The stamp of `axes` (names, meanings, allowed values): refract::profile::AxesHash, so that a
/// profile entry of an axis since renamed or redefined is stale.
std::string AxesHashOf(const std::vector<Axis>& axes);

/// `settings` as "name=value:name=value" in name order: a sweep configuration's label in its
/// row id, and an option's or a record's text. No ',' (the separator of `--filter`'s globs), so
/// every id `--list` prints passes back through `--filter`.
std::string SettingsText(const Settings& settings);

/// The axes of an op's typed configuration `Config`, each bound to the field that holds it.
template <typename Config>
class AxisTable {
 public:
  struct Entry {
    Axis axis;
    uint32_t Config::*field;
  };
  explicit AxisTable(std::vector<Entry> entries) : entries_(std::move(entries)) {
    for (const Entry& entry : entries_) axes_.push_back(entry.axis);
  }

  const std::vector<Axis>& axes() const { return axes_; }

  /// Every axis of `config` by name.
  Settings ValuesOf(const Config& config) const {
    Settings values;
    if constexpr (!std::is_empty_v<Config>) {  // a baseline's NoConfig has no axis to read
      for (const Entry& entry : entries_) values[entry.axis.name] = config.*entry.field;
    }
    return values;
  }

  /// `config` with each axis that `settings` names replaced (names of no axis here are left
  /// alone: they belong to another op of the kernel).
  Config With(Config config, const Settings& settings) const {
    if constexpr (!std::is_empty_v<Config>) {
      for (const Entry& entry : entries_) {
        config.*entry.field = SettingOr(settings, entry.axis.name, config.*entry.field);
      }
    }
    return config;
  }

  /// The first axis whose value in `config` it does not allow, as "rows 9 is not 1 to 8"; nothing
  /// when every value is allowed.
  std::optional<std::string> Disallowed(const Config& config) const {
    if constexpr (std::is_empty_v<Config>) return std::nullopt;
    for (const Entry& entry : entries_) {
      const uint32_t value = config.*entry.field;
      if (!entry.axis.Allows(value)) {
        return entry.axis.name + " " + std::to_string(value) + " is not " +
               entry.axis.AllowedText();
      }
    }
    return std::nullopt;
  }

  /// The product of every axis's grid (with `quick`, of its quick values), in table order (the
  /// last axis varies fastest), each point written over `base`; an axis without a grid keeps
  /// base's value.
  std::vector<Config> Grid(const Config& base, bool quick = false) const {
    std::vector<Config> configs = {base};
    for (const Entry& entry : entries_) {
      const std::vector<uint32_t>& values =
          quick && !entry.axis.quick.empty() ? entry.axis.quick : entry.axis.grid;
      if (values.empty()) continue;
      std::vector<Config> next;
      for (const Config& config : configs) {
        for (uint32_t value : values) {
          Config point = config;
          point.*entry.field = value;
          next.push_back(point);
        }
      }
      configs = std::move(next);
    }
    return configs;
  }

 private:
  std::vector<Entry> entries_;
  std::vector<Axis> axes_;
};

}  // namespace refract::ops
