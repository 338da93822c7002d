// Checks for numeric options. CLI11's Range passes NaN (every comparison with it is false), so
// each decimal option is first checked to be a finite number, then to lie in its range; and an
// unsigned option without a range takes "-1" as 2^64 − 1, so it is checked to be digits.
#pragma once

#include <CLI/CLI.hpp>

namespace refract::cli {

/// Refuses a value that is not a finite decimal number ("nan", "inf", "1e400"), naming it.
const CLI::Validator& FiniteNumber();

/// Refuses a value that is not a plain non-negative whole number ("-1" would wrap around an
/// unsigned option: the seed).
const CLI::Validator& NonNegativeInteger();

/// Adds to `option` the checks that its value is finite and within [lowest, highest].
CLI::Option* CheckFiniteWithin(CLI::Option* option, double lowest, double highest);

}  // namespace refract::cli
