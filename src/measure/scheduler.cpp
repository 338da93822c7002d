#include "measure/scheduler.h"

#include <algorithm>
#include <exception>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <utility>

#include "base/error.h"

namespace refract::measure {

namespace {

// Fisher–Yates on raw mt19937_64 output, so an order depends only on the seed, not on the
// standard library's std::shuffle or distributions. The modulo bias is below n / 2^64.
void Shuffle(std::vector<size_t>& items, std::mt19937_64& rng) {
  for (size_t i = items.size(); i > 1; --i) {
    const auto j = static_cast<size_t>(rng() % i);
    std::swap(items[i - 1], items[j]);
  }
}

SchedulerObserver& NoObserver() {
  static SchedulerObserver none;
  return none;
}

// One workload's state during the schedule.
struct Row {
  Workload* workload = nullptr;
  WorkloadOutcome outcome;
  std::optional<Sampler> sampler;  // set once calibrated
  bool settled = false;
};

class Schedule {
 public:
  Schedule(std::span<Workload* const> workloads, Timer& timer, Clock& clock,
           const SchedulerOptions& options, const CalibrationOptions& calibration_options,
           SchedulerObserver* observer)
      : timer_(timer),
        clock_(clock),
        options_(options),
        calibration_options_(calibration_options),
        observer_(observer ? *observer : NoObserver()),
        stopping_(MakeStoppingRule(options.stopping)),
        rng_(options.seed) {
    rows_.reserve(workloads.size());
    for (Workload* workload : workloads) {
      Row row;
      row.workload = workload;
      row.outcome.id = std::string(workload->id());
      row.outcome.headline = stopping_->headline();
      rows_.push_back(std::move(row));
    }
  }

  std::vector<WorkloadOutcome> Run() {
    if (!rows_.empty() && CalibrateAll()) {
      rounds_start_ms_ = clock_.NowMs();
      for (uint32_t round = 1; SettledCount() < rows_.size(); ++round) {
        if (!RunRound(round)) break;
      }
    }
    std::vector<WorkloadOutcome> outcomes;
    outcomes.reserve(rows_.size());
    for (Row& row : rows_) outcomes.push_back(std::move(row.outcome));
    return outcomes;
  }

 private:
  // Measures the suite's overhead and calibrates every workload. False when the device was
  // lost or hung (every workload then ended as error) or a stop was requested.
  bool CalibrateAll() {
    if (StopIfRequested()) return false;
    double overhead_ms = 0;
    try {
      overhead_ms = MeasureOverheadMs(timer_, calibration_options_);
    } catch (const std::exception& e) {
      FailAllUnsettled(e.what());
      return false;
    }
    for (size_t i = 0; i < rows_.size(); ++i) {
      if (StopIfRequested()) return false;
      Row& row = rows_[i];
      const Attempt attempt = Try(i, [&] {
        const Calibration calibration =
            Calibrate(*row.workload, timer_, overhead_ms, calibration_options_);
        WorkloadOutcome& outcome = row.outcome;
        outcome.work = calibration.work;
        outcome.dispatches_per_sample = calibration.dispatches_per_sample;
        outcome.work_per_dispatch = row.workload->WorkPerDispatch();
        outcome.linearity = calibration.linearity;
        outcome.notes = calibration.notes;
        if (calibration.linearity.state == LinearityState::kSuspect) {
          outcome.flags.emplace_back(kSuspectFlag);
        }
        row.sampler.emplace(timer_, overhead_ms, options_.sampler);
        outcome.timing_method = std::string(row.sampler->TimingMethod());
        observer_.OnCalibrated(i, calibration);
      });
      if (attempt == Attempt::kDeviceGone) return false;
    }
    return true;
  }

  enum class Attempt { kDone, kFailed, kDeviceGone };

  // Runs `step` for workload i. A hang or a lost device ends every unsettled workload
  // (kDeviceGone); any other error fails workload i alone (kFailed).
  template <typename Step>
  Attempt Try(size_t i, Step&& step) {
    try {
      step();
      return Attempt::kDone;
    } catch (const DeviceHungError& e) {
      FailAfterHang(i, e.what());
    } catch (const DeviceLostError& e) {
      FailAllUnsettled(e.what());
    } catch (const std::exception& e) {
      Fail(i, e.what());
      return Attempt::kFailed;
    }
    return Attempt::kDeviceGone;
  }

  // Measures every unsettled workload once, then applies the cooldown rule. False when the
  // device was lost or hung, or a stop was requested.
  bool RunRound(uint32_t round) {
    std::vector<size_t> order;
    for (size_t i = 0; i < rows_.size(); ++i) {
      if (!rows_[i].settled) order.push_back(i);
    }
    Shuffle(order, rng_);

    size_t samples = 0;
    size_t throttled = 0;
    for (size_t i : order) {
      if (StopIfRequested()) return false;
      if (measurements_ > 0) Sleep(options_.idle_gap_ms);
      if (StopIfRequested()) return false;
      ++measurements_;
      Row& row = rows_[i];
      Measurement measurement;
      const Attempt attempt = Try(i, [&] {
        measurement = row.sampler->Measure(*row.workload, row.outcome.dispatches_per_sample);
      });
      if (attempt == Attempt::kDeviceGone) return false;
      if (attempt == Attempt::kFailed) continue;
      ++samples;
      if (Record(row, measurement)) ++throttled;
      observer_.OnSample(i, row.outcome);
      if (const StopReason reason = stopping_->Check(row.outcome); reason != StopReason::kNone) {
        Settle(i, reason);
      }
    }

    bool cool_down = false;
    if (throttled >= 2 && 2 * throttled >= samples) {
      if (cooldowns_ < options_.max_cooldowns) {
        cool_down = true;
      } else {
        for (size_t i = 0; i < rows_.size(); ++i) {
          if (!rows_[i].settled) Settle(i, StopReason::kThrottled);
        }
      }
    }
    observer_.OnRoundDone(round, SettledCount(), rows_.size(), EtaS());
    if (cool_down) {
      ++cooldowns_;
      observer_.OnCooldown(cooldowns_);
      Sleep(options_.cooldown_ms);
    }
    return true;
  }

  bool StopRequested() const { return options_.stop_requested && options_.stop_requested(); }

  // Sleeps `ms`; with a stop check, in slices of at most kStopCheckMs, ending early once a stop
  // is requested.
  void Sleep(double ms) {
    if (!options_.stop_requested) {
      clock_.SleepMs(ms);
      return;
    }
    for (double left = ms; left > 0 && !StopRequested(); left -= kStopCheckMs) {
      clock_.SleepMs(std::min(left, kStopCheckMs));
    }
  }

  // When a stop is requested: ends every unsettled workload as skipped; true then.
  bool StopIfRequested() {
    if (!StopRequested()) return false;
    for (size_t i = 0; i < rows_.size(); ++i) {
      if (rows_[i].settled) continue;
      Row& row = rows_[i];
      row.outcome.status = Status::kSkipped;
      row.outcome.message = std::string(kInterruptedMessage);
      row.outcome.stop_reason = StopReason::kNone;
      row.settled = true;
      observer_.OnSettled(i, row.outcome);
    }
    return true;
  }

  // Files a measurement as kept or throttled and refreshes the outcome. True when throttled.
  bool Record(Row& row, const Measurement& measurement) {
    WorkloadOutcome& outcome = row.outcome;
    if (measurement.demoted_now) {
      outcome.times_ms.clear();
      outcome.throttled_ms.clear();
      outcome.flags.emplace_back(kTimestampDemotedFlag);
      outcome.notes.emplace_back(
          "GPU timestamps disagreed with the wall clock in consecutive samples: demoted to "
          "wall clock, earlier samples dropped");
    }
    const bool throttled = stopping_->SetsAsideThrottled() && !outcome.times_ms.empty() &&
                           measurement.dispatch_ms > options_.throttle_factor * outcome.best_ms;
    (throttled ? outcome.throttled_ms : outcome.times_ms).push_back(measurement.dispatch_ms);
    outcome.stats = Summarize(outcome.times_ms);
    outcome.best_ms = outcome.stats.min;
    outcome.metric_value =
        outcome.work_per_dispatch / (HeadlineMs(outcome.stats, outcome.headline) / 1000.0);
    outcome.timing_method = std::string(row.sampler->TimingMethod());
    return throttled;
  }

  void Settle(size_t index, StopReason reason) {
    Row& row = rows_[index];
    row.outcome.status = Status::kOk;
    row.outcome.stop_reason = reason;
    if (reason == StopReason::kThrottled) row.outcome.flags.emplace_back(kThrottledFlag);
    if (row.outcome.times_ms.size() < kFewestSamplesForSpread) {
      row.outcome.flags.emplace_back(kFewSamplesFlag);
      row.outcome.stats.stddev = std::numeric_limits<double>::quiet_NaN();
      row.outcome.stats.ci95 = std::numeric_limits<double>::quiet_NaN();
    }
    row.settled = true;
    observer_.OnSettled(index, row.outcome);
  }

  void Fail(size_t index, const std::string& message) {
    Row& row = rows_[index];
    row.outcome.status = Status::kError;
    row.outcome.message = message;
    row.outcome.stop_reason = StopReason::kNone;
    row.settled = true;
    observer_.OnSettled(index, row.outcome);
  }

  void FailAllUnsettled(const std::string& message) {
    for (size_t i = 0; i < rows_.size(); ++i) {
      if (!rows_[i].settled) Fail(i, message);
    }
  }

  // Workload `index` hung the device: it fails with `message`, every other unsettled one was
  // not run.
  void FailAfterHang(size_t index, const std::string& message) {
    Fail(index, message);
    FailAllUnsettled(kNotRunAfterHang);
  }

  size_t SettledCount() const {
    return static_cast<size_t>(
        std::count_if(rows_.begin(), rows_.end(), [](const Row& row) { return row.settled; }));
  }

  // See RunSchedule's comment [s].
  double EtaS() const {
    if (measurements_ == 0) return 0;
    const double per_measurement_ms =
        (clock_.NowMs() - rounds_start_ms_) / static_cast<double>(measurements_);
    size_t left = 0;
    for (const Row& row : rows_) {
      if (!row.settled) left += stopping_->SamplesLeft(row.outcome);
    }
    return per_measurement_ms * static_cast<double>(left) / 1000.0;
  }

  Timer& timer_;
  Clock& clock_;
  const SchedulerOptions& options_;
  const CalibrationOptions& calibration_options_;
  SchedulerObserver& observer_;
  std::unique_ptr<StoppingRule> stopping_;
  std::mt19937_64 rng_;
  std::vector<Row> rows_;
  double rounds_start_ms_ = 0;
  size_t measurements_ = 0;  // measurement attempts in rounds so far
  uint32_t cooldowns_ = 0;
};

}  // namespace

std::vector<WorkloadOutcome> RunSchedule(std::span<Workload* const> workloads, Timer& timer,
                                         Clock& clock, const SchedulerOptions& options,
                                         const CalibrationOptions& calibration_options,
                                         SchedulerObserver* observer) {
  return Schedule(workloads, timer, clock, options, calibration_options, observer).Run();
}

}  // namespace refract::measure
