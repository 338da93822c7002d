// Arithmetic over named numbers, as a tuning spec writes its sizes, grids, restrictions and
// metrics: "N*K/8*4", "ceil_div(N, TILE_N)", "TILE_M*TILE_N <= 4096". muparser (Debian's
// libmuparser) parses and evaluates them; refract adds only the names, three functions and the
// checks of the result. Pure: no GPU.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace refract::tune {

/// The values an expression may name (a problem's sizes, a configuration's axes).
using Names = std::map<std::string, double>;

/// The largest whole number EvaluateWhole returns: 2^53, past which a double is no longer exact.
inline constexpr uint64_t kLargestWhole = uint64_t{1} << 53;

/// The value of `text` with `names` bound, and muparser's operators and functions (+ - * / ^,
/// comparisons, && ||, ?:, min, max, abs, …) plus ceil_div(a, b), floor(x), ceil(x). Throws
/// UsageError beginning with `field`: a syntax error (its position), an unknown name (the
/// known ones listed), a value that is not finite (a division by zero).
double Evaluate(const std::string& text, const Names& names, const std::string& field);

/// A count or a size: Evaluate's value, which must be a whole number from 0 to `largest`; a
/// fraction, a negative value or one past `largest` ("overflows") throws UsageError naming
/// `field` and the expression.
uint64_t EvaluateWhole(const std::string& text, const Names& names, const std::string& field,
                       uint64_t largest = kLargestWhole);

/// A restriction: Evaluate's value is non-zero.
bool EvaluateCondition(const std::string& text, const Names& names, const std::string& field);

}  // namespace refract::tune
