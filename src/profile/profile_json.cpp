// The store's JSON layout, read strictly and written back (docs/profile.schema.json).
#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "profile/document_text.h"
#include "refract/profile.h"

namespace refract::profile {
namespace {

using nlohmann::json;

[[noreturn]] void Fail(const std::string& path, const std::string& what) {
  throw ProfileError(path + ": " + what);
}

const json& Field(const json& object, const std::string& path, const char* name) {
  auto found = object.find(name);
  if (found == object.end()) Fail(path, std::string("missing field '") + name + "'");
  return *found;
}

const json& ObjectAt(const json& value, const std::string& path) {
  if (!value.is_object()) Fail(path, "not an object");
  return value;
}

const json& ArrayAt(const json& value, const std::string& path) {
  if (!value.is_array()) Fail(path, "not an array");
  return value;
}

std::string StringOf(const json& object, const std::string& path, const char* name) {
  const json& value = Field(object, path, name);
  if (!value.is_string()) Fail(path + "." + name, "not a string");
  return value.get<std::string>();
}

std::string NonEmptyStringOf(const json& object, const std::string& path, const char* name) {
  std::string text = StringOf(object, path, name);
  if (text.empty()) Fail(path + "." + name, "empty");
  return text;
}

/// A whole number 0 … 2^32 - 1; written as 256 or 256.0 (JavaScript does not tell them apart,
/// and the JavaScript reader must answer the same).
uint32_t WholeOf(const json& value, const std::string& path) {
  if (!value.is_number()) Fail(path, "not a whole number");
  const double number = value.get<double>();
  if (value.is_number_float() && (!std::isfinite(number) || number != std::floor(number))) {
    Fail(path, "not a whole number");
  }
  if (number < 0) Fail(path, "negative");
  if (number > std::numeric_limits<uint32_t>::max()) Fail(path, "above 4294967295");
  return value.is_number_float() ? static_cast<uint32_t>(number) : value.get<uint32_t>();
}

double NumberOf(const json& value, const std::string& path) {
  if (!value.is_number()) Fail(path, "not a number");
  const double number = value.get<double>();
  if (!std::isfinite(number)) Fail(path, "not finite");
  return number;
}

double PositiveOf(const json& object, const std::string& path, const char* name) {
  const double number = NumberOf(Field(object, path, name), path + "." + name);
  if (number <= 0) Fail(path + "." + name, "not > 0");
  return number;
}

/// An optional ratio: null or a finite number > 0 (a margin may be 0: a tie).
std::optional<double> OptionalRatioOf(const json& object, const std::string& path, const char* name,
                                      bool zero_allowed) {
  const json& value = Field(object, path, name);
  if (value.is_null()) return std::nullopt;
  const double number = NumberOf(value, path + "." + name);
  if (number < 0 || (!zero_allowed && number == 0)) {
    Fail(path + "." + name, zero_allowed ? "negative" : "not > 0");
  }
  return number;
}

std::vector<std::string> NamesOf(const json& object, const std::string& path, const char* name) {
  const std::string where = path + "." + name;
  std::vector<std::string> names;
  for (const json& item : ArrayAt(Field(object, path, name), where)) {
    if (!item.is_string() || item.get<std::string>().empty()) Fail(where, "not a list of names");
    names.push_back(item.get<std::string>());
  }
  return names;
}

/// A UTC time to the second as ISO 8601 writes it, "2026-12-01T17:07:14Z": the calendar's
/// months and days (leap years too), hours 0-23, minutes and seconds 0-59.
std::string UtcTimeOf(const json& object, const std::string& path, const char* name) {
  const std::string text = StringOf(object, path, name);
  const auto digits = [&](size_t at, size_t count) {
    int value = 0;
    for (size_t i = at; i < at + count; ++i) {
      if (text[i] < '0' || text[i] > '9') return -1;
      value = value * 10 + (text[i] - '0');
    }
    return value;
  };
  const bool shaped = text.size() == 20 && text[4] == '-' && text[7] == '-' && text[10] == 'T' &&
                      text[13] == ':' && text[16] == ':' && text[19] == 'Z';
  const int year = shaped ? digits(0, 4) : -1;
  const int month = shaped ? digits(5, 2) : -1;
  const int day = shaped ? digits(8, 2) : -1;
  const bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool valid = year >= 0 && month >= 1 && month <= 12 && day >= 1 &&
                     day <= kDays[month - 1] + (month == 2 && leap ? 1 : 0) &&
                     digits(11, 2) >= 0 && digits(11, 2) <= 23 && digits(14, 2) >= 0 &&
                     digits(14, 2) <= 59 && digits(17, 2) >= 0 && digits(17, 2) <= 59;
  if (!valid) Fail(path + "." + name, "not a UTC time written as 2026-12-01T17:07:14Z");
  return text;
}

Adapter AdapterOf(const json& value, const std::string& path) {
  ObjectAt(value, path);
  return {.key = NonEmptyStringOf(value, path, "key"),
          .vendor = StringOf(value, path, "vendor"),
          .architecture = StringOf(value, path, "architecture"),
          .device = StringOf(value, path, "device"),
          .vendor_id = WholeOf(Field(value, path, "vendor_id"), path + ".vendor_id"),
          .device_id = WholeOf(Field(value, path, "device_id"), path + ".device_id"),
          .driver = StringOf(value, path, "driver"),
          .backend = StringOf(value, path, "backend"),
          .subgroup_min_size =
              WholeOf(Field(value, path, "subgroup_min_size"), path + ".subgroup_min_size"),
          .subgroup_max_size =
              WholeOf(Field(value, path, "subgroup_max_size"), path + ".subgroup_max_size")};
}

Choice ChoiceOf(const json& value, const std::string& path) {
  ObjectAt(value, path);
  Choice choice;
  const std::string params_path = path + ".params";
  for (const auto& [name, setting] : ObjectAt(Field(value, path, "params"), params_path).items()) {
    choice.params[name] = WholeOf(setting, params_path + "." + name);
  }
  choice.row = NonEmptyStringOf(value, path, "row");
  choice.median_ms = PositiveOf(value, path, "median_ms");
  choice.p10_ms = PositiveOf(value, path, "p10_ms");
  choice.p90_ms = PositiveOf(value, path, "p90_ms");
  if (!(choice.p10_ms <= choice.median_ms && choice.median_ms <= choice.p90_ms)) {
    Fail(path, "p10_ms <= median_ms <= p90_ms does not hold");
  }
  choice.runner_up_margin = OptionalRatioOf(value, path, "runner_up_margin", true);
  choice.over_default = OptionalRatioOf(value, path, "over_default", false);
  choice.over_seed = OptionalRatioOf(value, path, "over_seed", false);
  return choice;
}

Stamp StampOf(const json& value, const std::string& path) {
  ObjectAt(value, path);
  return {.refract_version = NonEmptyStringOf(value, path, "refract_version"),
          .dawn_package = NonEmptyStringOf(value, path, "dawn_package"),
          .kernels = NamesOf(value, path, "kernels"),
          .kernel_hash = NonEmptyStringOf(value, path, "kernel_hash"),
          .axes = NamesOf(value, path, "axes"),
          .axes_hash = NonEmptyStringOf(value, path, "axes_hash"),
          .measured_at = UtcTimeOf(value, path, "measured_at")};
}

/// An entry of a store of schema `schema` (the grid from schema 2 on).
Entry EntryOf(const json& value, const std::string& path, uint32_t schema) {
  ObjectAt(value, path);
  Entry entry;
  entry.sweep = NonEmptyStringOf(value, path, "sweep");
  entry.kernel = NonEmptyStringOf(value, path, "kernel");
  entry.variant = NonEmptyStringOf(value, path, "variant");
  entry.problem = NonEmptyStringOf(value, path, "problem");
  const std::string shape_path = path + ".shape";
  for (const auto& [name, size] : ObjectAt(Field(value, path, "shape"), shape_path).items()) {
    entry.shape[name] = NumberOf(size, shape_path + "." + name);
  }
  entry.winner = ChoiceOf(Field(value, path, "winner"), path + ".winner");
  if (const json& within = Field(value, path, "winner_default_limits"); !within.is_null()) {
    entry.winner_default_limits = ChoiceOf(within, path + ".winner_default_limits");
  }
  const std::string cliffs_path = path + ".cliffs";
  size_t index = 0;
  for (const json& cliff : ArrayAt(Field(value, path, "cliffs"), cliffs_path)) {
    const std::string where = cliffs_path + "[" + std::to_string(index++) + "]";
    ObjectAt(cliff, where);
    entry.cliffs.push_back({.axis = NonEmptyStringOf(cliff, where, "axis"),
                            .at = NumberOf(Field(cliff, where, "at"), where + ".at"),
                            .reason = StringOf(cliff, where, "reason")});
  }
  entry.stamp = StampOf(Field(value, path, "stamp"), path + ".stamp");
  if (schema >= 2 && !Field(value, path, "grid").is_null()) {  // null: not recorded (schema 1)
    std::vector<std::string> grid = NamesOf(value, path, "grid");
    if (grid.empty()) Fail(path + ".grid", "empty: a winner is chosen from one configuration or more");
    if (!std::is_sorted(grid.begin(), grid.end()) ||
        std::adjacent_find(grid.begin(), grid.end()) != grid.end()) {
      Fail(path + ".grid", "not in name order, each once");
    }
    entry.grid = std::move(grid);
  }
  return entry;
}

json ChoiceJson(const Choice& choice) {
  json params = json::object();
  for (const auto& [name, value] : choice.params) params[name] = value;
  auto optional = [](const std::optional<double>& value) {
    return value ? json(*value) : json(nullptr);
  };
  return {{"params", params},
          {"row", choice.row},
          {"median_ms", choice.median_ms},
          {"p10_ms", choice.p10_ms},
          {"p90_ms", choice.p90_ms},
          {"runner_up_margin", optional(choice.runner_up_margin)},
          {"over_default", optional(choice.over_default)},
          {"over_seed", optional(choice.over_seed)}};
}

json EntryJson(const Entry& entry) {
  json shape = json::object();
  for (const auto& [name, size] : entry.shape) shape[name] = size;
  json cliffs = json::array();
  for (const Cliff& cliff : entry.cliffs) {
    cliffs.push_back({{"axis", cliff.axis}, {"at", cliff.at}, {"reason", cliff.reason}});
  }
  return {{"sweep", entry.sweep},
          {"kernel", entry.kernel},
          {"variant", entry.variant},
          {"problem", entry.problem},
          {"shape", shape},
          {"winner", ChoiceJson(entry.winner)},
          {"winner_default_limits",
           entry.winner_default_limits ? ChoiceJson(*entry.winner_default_limits) : json(nullptr)},
          {"cliffs", cliffs},
          {"grid", entry.grid ? json(*entry.grid) : json(nullptr)},
          {"stamp",
           {{"refract_version", entry.stamp.refract_version},
            {"dawn_package", entry.stamp.dawn_package},
            {"kernels", entry.stamp.kernels},
            {"kernel_hash", entry.stamp.kernel_hash},
            {"axes", entry.stamp.axes},
            {"axes_hash", entry.stamp.axes_hash},
            {"measured_at", entry.stamp.measured_at}}}};
}

}  // namespace

Store ParseStore(std::string_view text) {
  if (const std::optional<std::string> problem = document::TextProblem(text)) {
    throw ProfileError(*problem);
  }
  text = document::WithoutByteOrderMark(text);
  json document;
  try {
    document = json::parse(text);
  } catch (const json::out_of_range&) {  // a number past a double's range: name its field
    Fail(document::FailurePath(text, "store"), "not finite (a number beyond a double's range)");
  } catch (const json::exception& error) {
    throw ProfileError(std::string("not JSON: ") + error.what());
  }
  const std::string top = "store";
  ObjectAt(document, top);
  const json& format = Field(document, top, "format");
  if (!format.is_string() || format.get<std::string>() != kFormat) {
    Fail(top + ".format",
         std::string("not a refract profile store (format is not '") + kFormat + "')");
  }
  const json& version = Field(document, top, "schema_version");
  const uint32_t schema = WholeOf(version, top + ".schema_version");
  if (schema > static_cast<uint32_t>(kSchemaVersion)) {
    Fail(top + ".schema_version", "schema " + std::to_string(schema) + " is newer than " +
                                      std::to_string(kSchemaVersion) +
                                      ", the newest this reader knows: update the reader");
  }
  if (schema < 1) Fail(top + ".schema_version", "0 is no schema");
  Store store;
  std::set<std::string> adapters;
  size_t index = 0;
  for (const json& profile : ArrayAt(Field(document, top, "profiles"), top + ".profiles")) {
    const std::string path = top + ".profiles[" + std::to_string(index++) + "]";
    ObjectAt(profile, path);
    AdapterProfile parsed{.adapter = AdapterOf(Field(profile, path, "adapter"), path + ".adapter"),
                          .entries = {}};
    if (!adapters.insert(parsed.adapter.key).second) {
      Fail(path + ".adapter.key", "a second profile of '" + parsed.adapter.key + "'");
    }
    std::set<std::tuple<std::string, std::string, std::string>> keys;
    size_t entry_index = 0;
    for (const json& entry : ArrayAt(Field(profile, path, "entries"), path + ".entries")) {
      const std::string where = path + ".entries[" + std::to_string(entry_index++) + "]";
      Entry parsed_entry = EntryOf(entry, where, schema);
      if (!keys.emplace(parsed_entry.kernel, parsed_entry.variant, parsed_entry.problem).second) {
        Fail(where, "a second entry of " + parsed_entry.kernel + " " + parsed_entry.variant +
                        " at " + parsed_entry.problem);
      }
      parsed.entries.push_back(std::move(parsed_entry));
    }
    store.profiles.push_back(std::move(parsed));
  }
  return store;
}

Store LoadStore(const std::string& path) {
  const document::FileText file = document::ReadFile(path);
  if (!file.problem.empty()) throw ProfileError(path + ": " + file.problem);
  try {
    return ParseStore(file.text);
  } catch (const ProfileError& error) {
    throw ProfileError(path + ": " + error.what());
  }
}

std::string StoreToJson(const Store& store) {
  json profiles = json::array();
  for (const AdapterProfile& profile : store.profiles) {
    const Adapter& a = profile.adapter;
    json entries = json::array();
    for (const Entry& entry : profile.entries) entries.push_back(EntryJson(entry));
    profiles.push_back({{"adapter",
                         {{"key", a.key},
                          {"vendor", a.vendor},
                          {"architecture", a.architecture},
                          {"device", a.device},
                          {"vendor_id", a.vendor_id},
                          {"device_id", a.device_id},
                          {"driver", a.driver},
                          {"backend", a.backend},
                          {"subgroup_min_size", a.subgroup_min_size},
                          {"subgroup_max_size", a.subgroup_max_size}}},
                        {"entries", entries}});
  }
  const json document = {
      {"format", kFormat}, {"schema_version", kSchemaVersion}, {"profiles", profiles}};
  // Invalid UTF-8 (a driver string) is written as U+FFFD rather than failing the write.
  return document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace refract::profile
