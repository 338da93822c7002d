#include "reference/compare.h"

#include <cmath>

namespace refract::reference {
namespace {

template <typename T>
double MaxMagnitudeOf(std::span<const T> values) {
  double largest = 0;
  for (T value : values) {
    const double magnitude = std::fabs(static_cast<double>(value));
    if (magnitude > largest) largest = magnitude;  // NaN compares false: ignored
  }
  return largest;
}

/// Enough digits to tell two floats apart; a whole number below 2^53 (an integer output, a
/// u32 of 10 digits) exactly.
std::string Number(double value) {
  std::ostringstream text;
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9007199254740992.0) {
    text << std::fixed;
    text.precision(0);
  } else {
    text.precision(9);
  }
  text << value;
  return text.str();
}

}  // namespace

double MaxMagnitude(std::span<const float> values) { return MaxMagnitudeOf(values); }
double MaxMagnitude(std::span<const double> values) { return MaxMagnitudeOf(values); }

Comparison::Comparison(std::string what, Tolerance tolerance, IndexNamer namer,
                       ReferenceName reference)
    : what_(std::move(what)),
      tolerance_(tolerance),
      namer_(std::move(namer)),
      reference_(std::move(reference)) {}

std::string Comparison::Name(size_t index) const {
  return namer_ ? namer_(index) : "element " + std::to_string(index);
}

void Comparison::Check(size_t index, double gpu, double cpu, double extra_absolute) {
  ++checked_;
  const double error = std::fabs(gpu - cpu);
  const bool nan = std::isnan(error);
  if (!max_error_is_nan_ && (nan || error > max_abs_error_)) {
    max_abs_error_ = error;
    max_error_is_nan_ = nan;
    max_error_index_ = index;
  }
  const double allowed =
      tolerance_.absolute + extra_absolute + tolerance_.relative * std::fabs(cpu);
  if (error <= allowed) return;  // NaN on either side never passes
  if (mismatches_ < 3) {
    first_ << (mismatches_ ? "; " : "") << Name(index) << ": GPU " << Number(gpu) << ", "
           << reference_.label << " " << Number(cpu);
  }
  ++mismatches_;
}

void Comparison::Fail(std::string problem) {
  if (problem_.empty()) problem_ = std::move(problem);
  ++mismatches_;
}

VerificationRecord Comparison::Finish() const {
  if (!problem_.empty()) throw VerificationError(what_ + ": " + problem_);
  if (mismatches_ > 0) {
    std::string tolerance = tolerance_.IsExact()
                                ? std::string("exact")
                                : "|error| <= " + Number(tolerance_.absolute) + " + " +
                                      Number(tolerance_.relative) + "*|" + reference_.label + "|";
    throw VerificationError(what_ + ": " + std::to_string(mismatches_) + " of " +
                                std::to_string(checked_) + " outputs disagree with " +
                                reference_.phrase + " (tolerance " + tolerance + "; max |error| " +
                                Number(max_abs_error_) + " at " + Name(max_error_index_) +
                                "): " + first_.str(),
                            VerificationRecord{.elements = checked_,
                                               .max_abs_error = max_abs_error_,
                                               .tolerance = tolerance_,
                                               .model_deviation = std::nullopt,
                                               .mismatches = mismatches_});
  }
  return {.elements = checked_, .max_abs_error = max_abs_error_, .tolerance = tolerance_};
}

}  // namespace refract::reference
