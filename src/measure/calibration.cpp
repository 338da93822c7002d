#include "measure/calibration.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "measure/format.h"

namespace refract::measure {

namespace {

// Readings below this count as zero and make the ramp grow by max_growth [ms].
constexpr double kMinReadingMs = 1e-6;

// One dispatch at the current knob: gpu time when the timer has it, else wall − overhead [ms].
WorkProbe OneDispatch(Workload& workload, Timer& timer, double overhead_ms) {
  const Sample sample = timer.Time(workload, 1);
  const double ms = sample.gpu_ms ? *sample.gpu_ms : sample.wall_ms - overhead_ms;
  REFRACT_THROW_IF(!std::isfinite(ms), GpuError,
                   StrFormat("one dispatch of %s timed %g ms: the pass likely did no work",
                             std::string(workload.id()).c_str(), ms));
  return WorkProbe{workload.Work(), std::max(ms, kMinReadingMs), sample.gpu_ms.has_value()};
}

// One-dispatch tries at a few knob values, gathered in rounds.
struct PointTries {
  std::vector<uint64_t> works;
  std::vector<std::vector<double>> times;  // [point][try] [ms]
  bool gpu_timed = true;
};

// Adds `rounds` rounds of one dispatch at each point, the points interleaved within a round so
// that a burst of load on a shared host slows every point alike rather than one.
void AddRounds(Workload& workload, Timer& timer, double overhead_ms, uint32_t rounds,
               PointTries& tries) {
  tries.times.resize(tries.works.size());
  for (uint32_t round = 0; round < std::max(rounds, 1u); ++round) {
    for (size_t i = 0; i < tries.works.size(); ++i) {
      workload.SetWork(tries.works[i]);
      const WorkProbe probe = OneDispatch(workload, timer, overhead_ms);
      tries.times[i].push_back(probe.dispatch_ms);
      tries.gpu_timed = tries.gpu_timed && probe.gpu_timed;
    }
  }
}

// Each point's minimum, with the gap to its next fastest try as its noise.
std::vector<WorkProbe> Points(const PointTries& tries) {
  std::vector<WorkProbe> points;
  for (size_t i = 0; i < tries.works.size(); ++i) {
    std::vector<double> sorted = tries.times[i];
    std::sort(sorted.begin(), sorted.end());
    const double noise_ms = sorted.size() > 1 ? sorted[1] - sorted[0] : 0;
    points.push_back(WorkProbe{tries.works[i], sorted[0], tries.gpu_timed, noise_ms});
  }
  return points;
}

// The pair judged from points lo, 2·lo, 4·lo, and a note on the fixed cost (may be empty).
struct JudgedPair {
  WorkProbe half, full;
  std::string note;
};

// The lower pair estimates a dispatch's fixed cost, 2·t1 − t2 (thread start-up, output writes:
// large on a CPU device), which is taken out of the upper pair. That is a difference of two
// noisy times, so it applies only when both pairs grow past the flat threshold and the lower
// pair's growth clears the two points' noise; otherwise the times are judged as measured (a
// flat time stays flat). The points keep their own noise: carrying the correction's worst case
// through would call most CPU rows noisy.
JudgedPair PairFromThreePoints(const std::vector<WorkProbe>& points,
                               const LinearityOptions& linearity) {
  const WorkProbe &p1 = points[0], &p2 = points[1], &p3 = points[2];
  JudgedPair pair{p2, p3, ""};
  const double growth_ms = p2.dispatch_ms - p1.dispatch_ms;
  const double noise_ms = p1.noise_ms + p2.noise_ms;
  // Both pairs must grow: a flat time lifted by one burst of load lifts only one.
  const bool grows = p2.dispatch_ms >= linearity.flat_growth * p1.dispatch_ms &&
                     p3.dispatch_ms >= linearity.flat_growth * p2.dispatch_ms;
  const auto work1 = static_cast<unsigned long long>(p1.work);
  const auto work2 = static_cast<unsigned long long>(p2.work);
  if (grows && growth_ms <= noise_ms) {
    pair.note = StrFormat(
        "no fixed-cost correction: time grew %.3f ms from work %llu to %llu, within the tries' "
        "noise of %.3f ms",
        growth_ms, work1, work2, noise_ms);
    return pair;
  }
  const double fixed_ms =
      grows ? std::clamp(2 * p1.dispatch_ms - p2.dispatch_ms, 0.0, p1.dispatch_ms) : 0.0;
  if (fixed_ms > 0) {
    pair.half.dispatch_ms -= fixed_ms;
    pair.full.dispatch_ms -= fixed_ms;
    pair.note = StrFormat("fixed cost of a dispatch ≈ %.3f ms (from work %llu and %llu)", fixed_ms,
                          work1, work2);
  }
  return pair;
}

void RampWork(Workload& workload, Timer& timer, const CalibrationOptions& options,
              Calibration& result) {
  const uint64_t min_work = std::max<uint64_t>(1, workload.MinWork());
  const uint64_t max_work = std::max(min_work, workload.MaxWork());
  const double done_ms = options.ramp_done_fraction * options.target_dispatch_ms;
  uint64_t work = min_work;
  while (true) {
    workload.SetWork(work);
    const WorkProbe probe = OneDispatch(workload, timer, result.overhead_ms);
    const double ms = probe.dispatch_ms;
    result.work_probes.push_back(probe);
    if (ms >= done_ms) break;
    if (work >= max_work) {
      result.notes.push_back(
          StrFormat("work knob at its maximum (%llu): one dispatch takes %.3f ms, short of %.1f ms",
                    static_cast<unsigned long long>(work), ms, options.target_dispatch_ms));
      break;
    }
    if (result.work_probes.size() >= options.max_ramp_probes) {
      result.notes.push_back(
          StrFormat("work ramp stopped after %u probes at %.3f ms", options.max_ramp_probes, ms));
      break;
    }
    const double w = static_cast<double>(work);
    const double grown = std::min(w * options.target_dispatch_ms / ms, w * options.max_growth);
    if (grown >= static_cast<double>(max_work)) {
      work = max_work;
    } else {
      work = std::max(work + 1, static_cast<uint64_t>(std::floor(grown)));
    }
  }
  result.work = work;
}

void CheckLinearity(Workload& workload, Timer& timer, const CalibrationOptions& options,
                    Calibration& result) {
  const LinearityOptions& linearity = options.linearity;
  const uint64_t min_work = std::max<uint64_t>(1, workload.MinWork());
  const uint64_t max_work = std::max(min_work, workload.MaxWork());
  // Preferred: three points lo, 2·lo, 4·lo at or around the calibrated work.
  std::optional<uint64_t> lo;
  for (uint64_t candidate : {result.work / 4, result.work / 2, result.work}) {
    if (candidate >= min_work && candidate * 4 <= max_work) {
      lo = candidate;
      break;
    }
  }
  // One dispatch at the least point first: slow rows (a CPU device at its least work) keep to
  // two points, or none, within the probe budget.
  std::optional<double> lo_ms;
  if (lo) {
    workload.SetWork(*lo);
    lo_ms = OneDispatch(workload, timer, result.overhead_ms).dispatch_ms;
    if (*lo_ms * 4 > linearity.max_probe_ms) lo.reset();
  }
  PointTries tries;
  if (lo) {
    tries.works = {*lo, *lo * 2, *lo * 4};
  } else if (!lo_ms || *lo_ms * 2 <= linearity.max_probe_ms) {
    // Two points when three do not fit the knob's range or the time budget: (work/2, work),
    // or (work, 2·work) when the ramp stopped at the knob's minimum.
    uint64_t low = result.work / 2, high = result.work;
    if (low < min_work) {
      low = result.work;
      high = std::min(max_work, result.work * 2);
    }
    if (low >= min_work && high >= 2 * low) tries.works = {low, high};
  }

  // The dedicated points (minimum of several tries each) decide when they are measured; the
  // ramp's single-shot probes only judge when they are not, since one noisy probe on a busy
  // host would otherwise flag a sound kernel. A verdict too noisy to call gets more tries.
  std::string pair_note;
  for (uint32_t attempt = 0; !tries.works.empty(); ++attempt) {
    AddRounds(workload, timer, result.overhead_ms, linearity.tries, tries);
    const std::vector<WorkProbe> points = Points(tries);
    JudgedPair pair = points.size() == 3 ? PairFromThreePoints(points, linearity)
                                         : JudgedPair{points[0], points[1], ""};
    pair_note = pair.note;
    result.linearity = JudgeLinearity({}, pair.half, pair.full, linearity);
    if (!result.linearity.too_noisy || attempt >= linearity.noisy_retries) break;
  }
  workload.SetWork(result.work);
  if (!pair_note.empty()) result.notes.push_back(pair_note);
  if (!tries.works.empty() && tries.times[0].size() > std::max(linearity.tries, 1u)) {
    result.notes.push_back(
        StrFormat("linearity points re-measured for noise: %zu tries each", tries.times[0].size()));
  }
  if (tries.works.empty()) {
    result.linearity = JudgeLinearity(result.work_probes, std::nullopt, std::nullopt, linearity);
    if (result.linearity.state == LinearityState::kUnchecked) {
      if (lo_ms && *lo_ms * 2 > linearity.max_probe_ms) {
        result.linearity.reason = StrFormat(
            "linearity unchecked: one dispatch takes %.1f ms, too slow to probe at more work",
            *lo_ms);
      } else {
        result.linearity.reason = StrFormat(
            "linearity unchecked: the knob's range [%llu, %llu] holds no doubling around %llu",
            static_cast<unsigned long long>(min_work), static_cast<unsigned long long>(max_work),
            static_cast<unsigned long long>(result.work));
      }
    }
  }
}

void SizeBatch(Workload& workload, Timer& timer, const CalibrationOptions& options,
               Calibration& result) {
  const uint32_t max_dispatches = std::max(options.max_dispatches, 1u);
  const double stop_ms = options.batch_target_ms / 2;
  uint32_t dispatches = 1;
  while (true) {
    const double wall_ms = timer.Time(workload, dispatches).wall_ms;
    REFRACT_THROW_IF(!std::isfinite(wall_ms), GpuError,
                     StrFormat("a batch of %u dispatches of %s timed %g ms", dispatches,
                               std::string(workload.id()).c_str(), wall_ms));
    result.batch_probes.push_back({dispatches, wall_ms});
    if (wall_ms >= stop_ms) break;
    if (dispatches >= max_dispatches) {
      result.notes.push_back(
          StrFormat("batch capped at %u dispatches (%.3f ms)", max_dispatches, wall_ms));
      break;
    }
    if (result.batch_probes.size() >= options.max_batch_probes) {
      result.notes.push_back(
          StrFormat("batch sizing stopped after %u probes at %u dispatches "
                    "(%.3f ms)",
                    options.max_batch_probes, dispatches, wall_ms));
      break;
    }
    const double growth = wall_ms > 0
                              ? std::min(options.max_growth, options.batch_aim_fraction *
                                                                 options.batch_target_ms / wall_ms)
                              : options.max_growth;
    const double grown = std::floor(static_cast<double>(dispatches) * growth);
    if (grown >= static_cast<double>(max_dispatches)) {
      dispatches = max_dispatches;
    } else {
      dispatches = std::max(dispatches + 1, static_cast<uint32_t>(grown));
    }
  }
  result.dispatches_per_sample = dispatches;
}

}  // namespace

double MeasureOverheadMs(Timer& timer, const CalibrationOptions& options) {
  std::optional<double> best;
  for (uint32_t i = 0; i < options.overhead_probes; ++i) {
    const double ms = timer.EmptySubmitMs();
    if (std::isfinite(ms) && ms >= 0) best = std::min(best.value_or(ms), ms);
  }
  return best.value_or(0.0);
}

Calibration Calibrate(Workload& workload, Timer& timer, double overhead_ms,
                      const CalibrationOptions& options) {
  Calibration result;
  result.overhead_ms = overhead_ms;
  result.has_work_knob = workload.HasWorkKnob();
  if (result.has_work_knob) {
    RampWork(workload, timer, options, result);
    CheckLinearity(workload, timer, options, result);
  } else {
    result.linearity.reason = "linearity unchecked: no work knob";
  }
  SizeBatch(workload, timer, options, result);
  for (uint32_t i = 0; i < options.warmup_batches; ++i) {
    timer.Time(workload, result.dispatches_per_sample);
  }
  return result;
}

}  // namespace refract::measure
