// Small constant tables that map a key (usually an enumerator) to a value: an enum's names,
// colours, escape codes. One table serves both directions, a value's name and the value a name
// stands for. A table does not warn about a missing enumerator as a switch does: keep each next
// to its enum's users and list every enumerator.
#pragma once

#include <cstddef>
#include <optional>

namespace refract {

/// One entry of a table: `key` maps to `value`.
template <typename Key, typename Value>
struct Entry {
  Key key;
  Value value;
};

/// The value `table` maps `key` to, or `fallback` when it has no entry for it.
template <typename Key, typename Value, size_t N>
constexpr Value Lookup(const Entry<Key, Value> (&table)[N], const Key& key, Value fallback) {
  for (const Entry<Key, Value>& entry : table) {
    if (entry.key == key) return entry.value;
  }
  return fallback;
}

/// The first key `table` maps to `value`, or nothing.
template <typename Key, typename Value, size_t N>
constexpr std::optional<Key> KeyOf(const Entry<Key, Value> (&table)[N], const Value& value) {
  for (const Entry<Key, Value>& entry : table) {
    if (entry.value == value) return entry.key;
  }
  return std::nullopt;
}

}  // namespace refract
