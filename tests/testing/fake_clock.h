// A clock for tests: time moves only when told; SleepMs never sleeps.
#pragma once

#include <functional>
#include <vector>

#include "measure/clock.h"

namespace refract::testing {

/// Manual clock: NowMs() returns the time so far; SleepMs() advances it and records the request.
class FakeClock final : public measure::Clock {
 public:
  double NowMs() override { return now_ms_; }
  void SleepMs(double ms) override;
  /// Moves time forward without recording a sleep [ms].
  void AdvanceMs(double ms) { now_ms_ += ms; }
  /// Every SleepMs request, in order [ms].
  const std::vector<double>& sleeps() const { return sleeps_; }
  /// Called with every SleepMs request, after time moved (e.g. to raise a stop meanwhile).
  void set_on_sleep(std::function<void(double ms)> on_sleep) { on_sleep_ = std::move(on_sleep); }

 private:
  double now_ms_ = 0;
  std::vector<double> sleeps_;
  std::function<void(double)> on_sleep_;
};

}  // namespace refract::testing
