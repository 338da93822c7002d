// Checks for the options every command parses, in one place so that each kind of value means
// the same everywhere. CLI11's own conversion takes "0x10" and " 5" as numbers and clamps or
// wraps what overflows, and its Range passes NaN (every comparison with it is false): so a whole
// number option takes plain decimal digits only, checked against its range before conversion,
// a decimal option is first checked to be a finite number, and a file option is never "".
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>

namespace refract::cli {

/// Refuses a value that is not a finite decimal number ("nan", "inf", "1e400"), naming it.
const CLI::Validator& FiniteNumber();

/// Adds to `option` the checks that its value is finite and within [lowest, highest].
CLI::Option* CheckFiniteWithin(CLI::Option* option, double lowest, double highest);

/// Adds to `option` the check that its value is a whole number written in plain decimal digits
/// (no sign, space, "0x" or exponent) within [lowest, highest]: "0x10", " 5", "-1", "1e3" and
/// "18446744073709551616" are refused naming the value, never read as something else. Its help
/// shows "WHOLE in [lowest - highest]".
CLI::Option* CheckWholeWithin(CLI::Option* option, uint64_t lowest, uint64_t highest);

/// Adds to `option` (a file to write or read) the check that it is not "": an empty name would
/// otherwise mean "no output" and the run would write nothing it was asked for.
CLI::Option* CheckFileName(CLI::Option* option);

}  // namespace refract::cli
