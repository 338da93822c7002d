// IEEE 754 binary16 ("half", WGSL f16) rounding for the CPU models of f16 kernels.
#pragma once

#include <cstdint>

namespace refract::reference {

/// The binary16 value nearest to `value` (round to nearest, ties to even), widened back to
/// float. Handles subnormals (down to 2^-24), overflow (|value| >= 65520 becomes ±infinity),
/// ±0, infinities and NaN. Taking a double lets a caller round an exactly computed sum or
/// product once, as an IEEE f16 operation does.
float RoundToHalf(double value);

/// The binary16 encoding of RoundToHalf(value); NaN becomes a quiet NaN (0x7E00 with its sign).
uint16_t HalfBits(double value);

/// The value of a binary16 encoding.
float HalfFromBits(uint16_t bits);

/// One WGSL f16 value on the CPU: every arithmetic operation computes the exact result in
/// double (a sum or product of two f16 values always fits a double's 53 bits) and rounds it to
/// f16 once, so each operation is the correctly rounded IEEE f16 operation.
class Half {
 public:
  constexpr Half() = default;
  /// Rounds `value` to f16.
  explicit Half(double value) : value_(RoundToHalf(value)) {}

  float value() const { return value_; }

  friend Half operator+(Half a, Half b) {
    return Half(static_cast<double>(a.value_) + static_cast<double>(b.value_));
  }
  friend Half operator-(Half a, Half b) {
    return Half(static_cast<double>(a.value_) - static_cast<double>(b.value_));
  }
  friend Half operator*(Half a, Half b) {
    return Half(static_cast<double>(a.value_) * static_cast<double>(b.value_));
  }
  Half& operator+=(Half other) { return *this = *this + other; }
  friend bool operator==(Half a, Half b) { return a.value_ == b.value_; }

 private:
  float value_ = 0.0f;  ///< always exactly an f16 value
};

}  // namespace refract::reference
