#include "cli/number_checks.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

namespace refract::cli {

const CLI::Validator& FiniteNumber() {
  static const CLI::Validator kFinite(
      [](std::string& input) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(input.c_str(), &end);
        if (end == input.c_str() || *end != '\0') return "'" + input + "' is not a number";
        if (!std::isfinite(value)) return "'" + input + "' is not a finite number";
        return "";
      },
      "FINITE");
  return kFinite;
}

CLI::Option* CheckFiniteWithin(CLI::Option* option, double lowest, double highest) {
  return option->check(FiniteNumber())->check(CLI::Range(lowest, highest));
}

CLI::Option* CheckWholeWithin(CLI::Option* option, uint64_t lowest, uint64_t highest) {
  const std::string range = "[" + std::to_string(lowest) + " - " + std::to_string(highest) + "]";
  return option->check(CLI::Validator(
      [lowest, highest, range](std::string& input) -> std::string {
        uint64_t value = 0;
        const char* end = input.data() + input.size();
        const auto [stop, error] = std::from_chars(input.data(), end, value);
        const bool digits = !input.empty() && input.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || stop != end) {
          return "'" + input + "' is not a whole number written in decimal digits";
        }
        if (error == std::errc::result_out_of_range || value < lowest || value > highest) {
          return "'" + input + "' is not within " + range;
        }
        return "";
      },
      "WHOLE in " + range));
}

CLI::Option* CheckFileName(CLI::Option* option) {
  return option->check(CLI::Validator(
      [](std::string& input) -> std::string {
        return input.empty() ? "a file name, not an empty one (- is standard output)" : "";
      },
      ""));
}

}  // namespace refract::cli
