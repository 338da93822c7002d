#include "report/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace refract::report {
namespace {

// Prefixes for 10^(3 * (i - kUnitIndex)).
constexpr std::array<std::string_view, 11> kPrefixes = {"p", "n", "µ", "m", "", "k",
                                                        "M", "G", "T", "P", "E"};
constexpr int kUnitIndex = 4;
constexpr int kLastIndex = 10;

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// `magnitude` (> 0) rounded to `significant` digits, as text with fixed decimals.
std::string RoundToSignificant(double magnitude, int significant) {
  int digits_before_point = static_cast<int>(std::floor(std::log10(magnitude))) + 1;
  int decimals = std::max(0, significant - digits_before_point);
  std::string text = fmt::format("{:.{}f}", magnitude, decimals);
  // Rounding up can add a digit before the point (99.96 → "100.0"); drop one decimal then.
  if (decimals > 0 && std::stod(text) >= std::pow(10.0, digits_before_point)) {
    text = fmt::format("{:.{}f}", magnitude, decimals - 1);
  }
  return text;
}

}  // namespace

std::string FormatSi(double value, std::string_view unit, int significant) {
  if (std::isnan(value)) return std::string(kMissing);
  const std::string sign = value < 0 ? "-" : "";
  const double magnitude = std::fabs(value);
  if (std::isinf(magnitude)) return fmt::format("{}inf {}", sign, unit);
  if (magnitude == 0) return fmt::format("0 {}", unit);
  significant = std::max(significant, 1);

  int index = kUnitIndex + static_cast<int>(std::floor(std::log10(magnitude) / 3));
  index = std::clamp(index, 0, kLastIndex);
  double scaled = magnitude / std::pow(1000.0, index - kUnitIndex);
  std::string digits = RoundToSignificant(scaled, significant);
  // Rounding can carry into the next prefix: 999.96 → "1000" becomes "1.00 k".
  if (std::stod(digits) >= 1000 && index < kLastIndex) {
    ++index;
    scaled /= 1000;
    digits = RoundToSignificant(std::max(scaled, 1.0), significant);
  }
  return fmt::format("{}{} {}{}", sign, digits, kPrefixes[static_cast<size_t>(index)], unit);
}

std::string FormatDuration(double ms) {
  if (std::isnan(ms)) return std::string(kMissing);
  const double seconds = ms / 1000;
  if (std::fabs(seconds) >= 1000 && std::isfinite(seconds)) {
    return fmt::format("{:.0f} s", seconds);
  }
  // Nothing above seconds: kilo-seconds read badly.
  std::string text = FormatSi(seconds, "s");
  return EndsWith(text, " ks") ? fmt::format("{:.0f} s", seconds) : text;
}

std::string FormatSummaryValue(std::string_view key, double value) {
  if (EndsWith(key, "_Bps")) return FormatSi(value, "B/s");
  if (EndsWith(key, "_flops")) return FormatSi(value, "FLOP/s");
  if (EndsWith(key, "_ops")) return FormatSi(value, "OP/s");
  if (std::isnan(value)) return std::string(kMissing);
  return fmt::format("{:.3g}", value);
}

}  // namespace refract::report
