// A scripted timer for measurement tests, and the workload it is usually paired with.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "measure/timer.h"
#include "measure/workload.h"
#include "testing/fake_clock.h"

namespace refract::testing {

/// A workload with no GPU work: an id, an optional work knob, a metric per knob unit.
class FakeWorkload final : public measure::Workload {
 public:
  /// Without a knob; one dispatch does `work_per_dispatch` metric units.
  FakeWorkload(std::string id, double work_per_dispatch)
      : id_(std::move(id)), units_per_work_(work_per_dispatch) {}
  /// With a knob in [min_work, max_work], starting at `min_work`; one dispatch does
  /// `units_per_work` × knob metric units.
  FakeWorkload(std::string id, uint64_t min_work, uint64_t max_work, double units_per_work)
      : id_(std::move(id)),
        has_knob_(true),
        min_work_(min_work),
        max_work_(max_work),
        work_(min_work),
        units_per_work_(units_per_work) {}

  std::string_view id() const override { return id_; }
  bool HasWorkKnob() const override { return has_knob_; }
  uint64_t MinWork() const override { return min_work_; }
  uint64_t MaxWork() const override { return max_work_; }
  uint64_t Work() const override { return work_; }
  void SetWork(uint64_t work) override { work_ = work; }
  double WorkPerDispatch() const override {
    return has_knob_ ? units_per_work_ * static_cast<double>(work_) : units_per_work_;
  }

 private:
  std::string id_;
  bool has_knob_ = false;
  uint64_t min_work_ = 1;
  uint64_t max_work_ = 1;
  uint64_t work_ = 1;
  double units_per_work_ = 1;
};

/// A timer that answers from per-workload queues, then from a script, and records every call.
class FakeTimer final : public measure::Timer {
 public:
  /// Gives the sample of one call. It may throw (e.g. refract::GpuError) to fake a failure.
  using Script =
      std::function<measure::Sample(measure::Workload& workload, uint32_t dispatch_count)>;

  /// One call of Time().
  struct Call {
    std::string id;
    uint32_t dispatch_count = 0;
    uint64_t work = 0;  ///< the knob's value during the call (0 without a knob)
  };

  /// Without a script, a call with an empty queue throws std::logic_error.
  explicit FakeTimer(Script script = nullptr) : script_(std::move(script)) {}

  /// Queues samples that calls on workload `id` return, in order, before the script is asked.
  void Queue(std::string_view id, const std::vector<measure::Sample>& samples);
  /// What EmptySubmitMs() returns [ms].
  void set_empty_submit_ms(double ms) { empty_submit_ms_ = ms; }
  /// When set, EmptySubmitMs() returns what this returns [ms]; it may throw to fake a failure.
  void set_empty_submit_script(std::function<double()> script) {
    empty_submit_script_ = std::move(script);
  }
  /// When set, every Time() call advances `clock` by the sample's wall time.
  void set_clock(FakeClock* clock) { clock_ = clock; }

  measure::Sample Time(measure::Workload& workload, uint32_t dispatch_count) override;
  double EmptySubmitMs() override;

  const std::vector<Call>& calls() const { return calls_; }
  /// The calls on workload `id`, in order.
  std::vector<Call> CallsFor(std::string_view id) const;
  int empty_submits() const { return empty_submits_; }

 private:
  Script script_;
  std::map<std::string, std::deque<measure::Sample>, std::less<>> queues_;
  std::vector<Call> calls_;
  double empty_submit_ms_ = 0;
  std::function<double()> empty_submit_script_;
  int empty_submits_ = 0;
  FakeClock* clock_ = nullptr;
};

/// A sample with only a wall time [ms].
inline measure::Sample WallSample(double wall_ms) { return measure::Sample{wall_ms, {}}; }
/// A sample with wall and GPU times [ms].
inline measure::Sample GpuSample(double wall_ms, double gpu_ms) {
  return measure::Sample{wall_ms, gpu_ms};
}

}  // namespace refract::testing
