#include "reference/half.h"

#include <cmath>
#include <limits>

namespace refract::reference {
namespace {

constexpr double kMaxHalf = 65504.0;           // largest finite f16
constexpr double kMinNormalHalf = 0x1p-14;     // smallest normal f16
constexpr double kSubnormalQuantum = 0x1p-24;  // spacing of f16 subnormals

}  // namespace

float RoundToHalf(double value) {
  if (std::isnan(value)) return std::numeric_limits<float>::quiet_NaN();
  if (std::isinf(value) || value == 0.0) return static_cast<float>(value);
  const double magnitude = std::fabs(value);
  // The spacing of f16 values around `magnitude`: 2^(e - 10) in the binade [2^e, 2^(e+1)),
  // 2^-24 throughout the subnormal range.
  double quantum = kSubnormalQuantum;
  if (magnitude >= kMinNormalHalf) {
    int exponent = 0;
    std::frexp(magnitude, &exponent);  // magnitude = m * 2^exponent, m in [0.5, 1)
    quantum = std::ldexp(1.0, exponent - 1 - 10);
  }
  // Dividing by a power of two is exact; nearbyint rounds to nearest, ties to even (the default
  // floating-point environment). A result that rounds up into the next binade is still exact.
  const double rounded = std::nearbyint(magnitude / quantum) * quantum;
  if (rounded > kMaxHalf) {
    return static_cast<float>(std::copysign(std::numeric_limits<double>::infinity(), value));
  }
  return static_cast<float>(std::copysign(rounded, value));
}

uint16_t HalfBits(double value) {
  const float rounded = RoundToHalf(value);
  const uint16_t sign = std::signbit(rounded) ? 0x8000u : 0u;
  const double magnitude = std::fabs(static_cast<double>(rounded));
  if (std::isnan(rounded)) return static_cast<uint16_t>(sign | 0x7E00u);
  if (std::isinf(rounded)) return static_cast<uint16_t>(sign | 0x7C00u);
  if (magnitude < kMinNormalHalf) {
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(magnitude / kSubnormalQuantum));
  }
  int exponent = 0;
  const double mantissa = std::frexp(magnitude, &exponent);  // in [0.5, 1)
  const auto biased = static_cast<uint16_t>(exponent - 1 + 15);
  const auto fraction = static_cast<uint16_t>((mantissa * 2.0 - 1.0) * 1024.0);
  return static_cast<uint16_t>(sign | (biased << 10) | fraction);
}

float HalfFromBits(uint16_t bits) {
  const bool negative = (bits & 0x8000u) != 0;
  const int biased = (bits >> 10) & 0x1F;
  const int fraction = bits & 0x3FF;
  double magnitude = 0.0;
  if (biased == 0x1F) {
    magnitude = fraction == 0 ? std::numeric_limits<double>::infinity()
                              : std::numeric_limits<double>::quiet_NaN();
  } else if (biased == 0) {
    magnitude = fraction * kSubnormalQuantum;
  } else {
    magnitude = std::ldexp(1.0 + fraction / 1024.0, biased - 15);
  }
  return static_cast<float>(negative ? -magnitude : magnitude);
}

}  // namespace refract::reference
