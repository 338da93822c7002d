#include "measure/calibration.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
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

// Times one dispatch at each of `works`, `tries` rounds, the points interleaved within a round
// so that a burst of load on a shared host slows every point alike rather than one. Each point
// keeps its minimum, with the gap to its next fastest try as its noise.
std::vector<WorkProbe> ReadPoints(Workload& workload, Timer& timer, double overhead_ms,
                                  const std::vector<uint64_t>& works, uint32_t tries) {
  std::vector<std::vector<double>> times(works.size());
  std::vector<WorkProbe> points;
  for (uint64_t work : works) points.push_back(WorkProbe{work, 0, true, 0});
  for (uint32_t round = 0; round < std::max(tries, 1u); ++round) {
    for (size_t i = 0; i < works.size(); ++i) {
      workload.SetWork(works[i]);
      const WorkProbe probe = OneDispatch(workload, timer, overhead_ms);
      times[i].push_back(probe.dispatch_ms);
      points[i].gpu_timed = points[i].gpu_timed && probe.gpu_timed;
    }
  }
  for (size_t i = 0; i < works.size(); ++i) {
    std::sort(times[i].begin(), times[i].end());
    points[i].dispatch_ms = times[i][0];
    points[i].noise_ms = times[i].size() > 1 ? times[i][1] - times[i][0] : 0;
  }
  return points;
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
  auto measure = [&](const std::vector<uint64_t>& works, uint32_t tries) {
    return ReadPoints(workload, timer, result.overhead_ms, works, tries);
  };
  std::optional<WorkProbe> half, full;
  // Preferred: three points lo, 2·lo, 4·lo at or around the calibrated work. The lower pair
  // estimates a dispatch's fixed cost (thread start-up, output writes: large on a CPU device),
  // which is taken out before the upper pair is judged.
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
    lo_ms = measure({*lo}, 1)[0].dispatch_ms;
    if (*lo_ms * 4 > linearity.max_probe_ms) lo.reset();
  }
  if (lo) {
    const std::vector<WorkProbe> points = measure({*lo, *lo * 2, *lo * 4}, linearity.tries);
    const WorkProbe &p1 = points[0], &p2 = points[1], &p3 = points[2];
    // The fixed cost is a difference of two times, so noise in either is amplified: the model
    // applies only when the lower pair's growth clears both the flat threshold and the two
    // points' noise. Otherwise the times are judged as measured (a flat time stays flat).
    const double growth_ms = p2.dispatch_ms - p1.dispatch_ms;
    const double noise_ms = p1.noise_ms + p2.noise_ms;
    const bool grows = p2.dispatch_ms >= linearity.flat_growth * p1.dispatch_ms;
    half = p2;
    full = p3;
    const double fixed_ms =
        grows && growth_ms > noise_ms
            ? std::clamp(2 * p1.dispatch_ms - p2.dispatch_ms, 0.0, p1.dispatch_ms)
            : 0.0;
    if (fixed_ms > 0) {
      // The points keep their own noise: the correction is only made when the lower pair's
      // growth clears it, and carrying its worst case through would call most CPU rows noisy.
      half->dispatch_ms -= fixed_ms;
      full->dispatch_ms -= fixed_ms;
      result.notes.push_back(
          StrFormat("fixed cost of a dispatch ≈ %.3f ms (from work %llu and %llu)", fixed_ms,
                    static_cast<unsigned long long>(p1.work),
                    static_cast<unsigned long long>(p2.work)));
    } else if (grows && growth_ms <= noise_ms) {
      result.notes.push_back(StrFormat(
          "no fixed-cost correction: time grew %.3f ms from work %llu to %llu, within the "
          "tries' noise of %.3f ms",
          growth_ms, static_cast<unsigned long long>(p1.work),
          static_cast<unsigned long long>(p2.work), noise_ms));
    }
  } else if (!lo_ms || *lo_ms * 2 <= linearity.max_probe_ms) {
    // Two points when three do not fit the knob's range or the time budget: (work/2, work),
    // or (work, 2·work) when the ramp stopped at the knob's minimum.
    uint64_t low = result.work / 2, high = result.work;
    if (low < min_work) {
      low = result.work;
      high = std::min(max_work, result.work * 2);
    }
    if (low >= min_work && high >= 2 * low) {
      const std::vector<WorkProbe> points = measure({low, high}, linearity.tries);
      half = points[0];
      full = points[1];
    }
  }
  workload.SetWork(result.work);
  // The dedicated points (minimum of several tries each) decide when they were measured; the
  // ramp's single-shot probes only judge when they were not, since one noisy probe on a busy
  // host would otherwise flag a sound kernel.
  std::span<const WorkProbe> ramp = half ? std::span<const WorkProbe>() : result.work_probes;
  result.linearity = JudgeLinearity(ramp, half, full, linearity);
  if (!half && result.linearity.state == LinearityState::kUnchecked) {
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
