#include "testing/fake_timer.h"

#include <stdexcept>

namespace refract::testing {

void FakeTimer::Queue(std::string_view id, const std::vector<measure::Sample>& samples) {
  auto& queue = queues_[std::string(id)];
  queue.insert(queue.end(), samples.begin(), samples.end());
}

measure::Sample FakeTimer::Time(measure::Workload& workload, uint32_t dispatch_count) {
  calls_.push_back(Call{std::string(workload.id()), dispatch_count,
                        workload.HasWorkKnob() ? workload.Work() : 0});
  measure::Sample sample;
  auto queue = queues_.find(workload.id());
  if (queue != queues_.end() && !queue->second.empty()) {
    sample = queue->second.front();
    queue->second.pop_front();
  } else if (script_) {
    sample = script_(workload, dispatch_count);
  } else {
    throw std::logic_error("FakeTimer: no sample scripted for " + std::string(workload.id()));
  }
  if (clock_) clock_->AdvanceMs(sample.wall_ms);
  return sample;
}

double FakeTimer::EmptySubmitMs() {
  ++empty_submits_;
  return empty_submit_script_ ? empty_submit_script_() : empty_submit_ms_;
}

std::vector<FakeTimer::Call> FakeTimer::CallsFor(std::string_view id) const {
  std::vector<Call> calls;
  for (const Call& call : calls_) {
    if (call.id == id) calls.push_back(call);
  }
  return calls;
}

}  // namespace refract::testing
