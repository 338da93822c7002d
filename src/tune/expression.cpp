#include "tune/expression.h"

#include <fmt/format.h>
#include <muParser.h>

#include <cmath>

#include "base/error.h"

namespace refract::tune {
namespace {

double CeilDiv(double a, double b) { return std::ceil(a / b); }
double Floor(double x) { return std::floor(x); }
double Ceil(double x) { return std::ceil(x); }

std::string KnownNames(const Names& names) {
  std::string known;
  for (const auto& [name, value] : names) known += (known.empty() ? "" : ", ") + name;
  return known.empty() ? "none" : known;
}

}  // namespace

double Evaluate(const std::string& text, const Names& names, const std::string& field) {
  Names bound = names;  // muparser binds variables by address
  double value = 0;
  try {
    mu::Parser parser;
    for (auto& [name, number] : bound) parser.DefineVar(name, &number);
    parser.DefineFun("ceil_div", CeilDiv);
    parser.DefineFun("floor", Floor);
    parser.DefineFun("ceil", Ceil);
    parser.SetExpr(text);
    value = parser.Eval();
  } catch (const mu::Parser::exception_type& error) {
    if (error.GetCode() == mu::ecUNASSIGNABLE_TOKEN) {
      throw UsageError(fmt::format("{}: '{}': unknown name '{}' (known: {})", field, text,
                                   error.GetToken(), KnownNames(names)));
    }
    throw UsageError(fmt::format("{}: '{}': {}", field, text, error.GetMsg()));
  }
  if (!std::isfinite(value)) {
    throw UsageError(fmt::format("{}: '{}' is {} (a division by zero?)", field, text,
                                 std::isnan(value) ? "not a number" : "infinite"));
  }
  return value;
}

uint64_t EvaluateWhole(const std::string& text, const Names& names, const std::string& field,
                       uint64_t largest) {
  const double value = Evaluate(text, names, field);
  if (value < 0) {
    throw UsageError(fmt::format("{}: '{}' is {:g}, below 0", field, text, value));
  }
  if (value > static_cast<double>(largest)) {
    throw UsageError(
        fmt::format("{}: '{}' is {:g}: it overflows (at most {})", field, text, value, largest));
  }
  if (value != std::floor(value)) {
    throw UsageError(fmt::format("{}: '{}' is {:g}, not a whole number (ceil_div(a, b) rounds up)",
                                 field, text, value));
  }
  return static_cast<uint64_t>(value);
}

bool EvaluateCondition(const std::string& text, const Names& names, const std::string& field) {
  return Evaluate(text, names, field) != 0;
}

}  // namespace refract::tune
