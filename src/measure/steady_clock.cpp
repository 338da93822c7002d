#include "measure/steady_clock.h"

#include <chrono>
#include <thread>

namespace refract::measure {

double SteadyClock::NowMs() {
  const auto since_epoch = std::chrono::steady_clock::now().time_since_epoch();
  return std::chrono::duration<double, std::milli>(since_epoch).count();
}

void SteadyClock::SleepMs(double ms) {
  if (ms <= 0) return;
  std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(ms));
}

}  // namespace refract::measure
