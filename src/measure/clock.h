// The host clock behind an interface, so scheduling is tested without sleeping.
#pragma once

namespace refract::measure {

/// A monotonic clock that can also wait.
class Clock {
 public:
  virtual ~Clock() = default;
  /// Monotonic time since an arbitrary origin [ms].
  virtual double NowMs() = 0;
  /// Blocks for `ms` [ms]; non-positive values return at once.
  virtual void SleepMs(double ms) = 0;
};

}  // namespace refract::measure
