#include "testing/fake_clock.h"

#include <algorithm>

namespace refract::testing {

void FakeClock::SleepMs(double ms) {
  sleeps_.push_back(ms);
  now_ms_ += std::max(ms, 0.0);
  if (on_sleep_) on_sleep_(ms);
}

}  // namespace refract::testing
