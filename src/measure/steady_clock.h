// The real clock: std::chrono::steady_clock and std::this_thread::sleep_for.
#pragma once

#include "measure/clock.h"

namespace refract::measure {

/// Clock on std::chrono::steady_clock.
class SteadyClock final : public Clock {
 public:
  double NowMs() override;
  void SleepMs(double ms) override;
};

}  // namespace refract::measure
