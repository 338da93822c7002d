#include "cli/number_checks.h"

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

const CLI::Validator& NonNegativeInteger() {
  static const CLI::Validator kDigits(
      [](std::string& input) -> std::string {
        if (input.empty() || input.find_first_not_of("0123456789") != std::string::npos) {
          return "'" + input + "' is not a whole number of 0 or more";
        }
        return "";
      },
      "UINT");
  return kDigits;
}

CLI::Option* CheckFiniteWithin(CLI::Option* option, double lowest, double highest) {
  return option->check(FiniteNumber())->check(CLI::Range(lowest, highest));
}

}  // namespace refract::cli
