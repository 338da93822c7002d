// The parameters that identify a benchmark within its suite (nvbench's axes): shape, data type,
// configuration, variant. Plain values, kept sorted by name.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace refract::results {

/// One parameter: an integer (a size, a count), a real number or a word ("f32", "tuned").
class ParamValue {
 public:
  using Value = std::variant<int64_t, double, std::string>;

  ParamValue() : value_(int64_t{0}) {}
  ParamValue(int v) : value_(int64_t{v}) {}                              // NOLINT: implicit
  ParamValue(unsigned v) : value_(int64_t{v}) {}                         // NOLINT
  ParamValue(long v) : value_(int64_t{v}) {}                             // NOLINT
  ParamValue(unsigned long v) : value_(static_cast<int64_t>(v)) {}       // NOLINT
  ParamValue(long long v) : value_(static_cast<int64_t>(v)) {}           // NOLINT
  ParamValue(unsigned long long v) : value_(static_cast<int64_t>(v)) {}  // NOLINT
  ParamValue(double v) : value_(v) {}                                    // NOLINT
  ParamValue(const char* v) : value_(std::string(v)) {}                  // NOLINT
  ParamValue(std::string v) : value_(std::move(v)) {}                    // NOLINT

  const Value& value() const { return value_; }
  bool IsInteger() const { return std::holds_alternative<int64_t>(value_); }
  bool IsReal() const { return std::holds_alternative<double>(value_); }
  bool IsText() const { return std::holds_alternative<std::string>(value_); }
  int64_t AsInteger() const { return std::get<int64_t>(value_); }
  double AsReal() const { return std::get<double>(value_); }
  const std::string& AsText() const { return std::get<std::string>(value_); }

  /// For display: integers in full, reals with up to 6 significant digits, words as they are.
  std::string ToString() const;

  bool operator==(const ParamValue&) const = default;

 private:
  Value value_;
};

/// Parameters by name, sorted.
using Params = std::map<std::string, ParamValue>;

/// "name=value name=value …" in name order, for messages and test names.
std::string ParamsText(const Params& params);

/// `name`'s word in `params`; "" when it has none or a number.
std::string TextOf(const Params& params, std::string_view name);

/// `name`'s number in `params` (an integer or a real); nothing when it has none or a word.
std::optional<double> NumberOf(const Params& params, std::string_view name);

}  // namespace refract::results
