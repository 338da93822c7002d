// What the measurement engine runs: one benchmark row, implemented by the suites.
#pragma once

#include <cstdint>
#include <string_view>

namespace refract::measure {

/// One benchmark row as the engine sees it: a work knob to scale (when it has one) and the work
/// one dispatch does. What a dispatch records is the Timer's business (bench::PassTimer runs a
/// bench::Benchmark's dispatches), so this engine never sees the GPU.
class Workload {
 public:
  virtual ~Workload() = default;

  /// Stable identifier of the row, e.g. "f32-fma-scalar".
  virtual std::string_view id() const = 0;

  /// True when the work of one dispatch can be scaled (e.g. the kernel's loop iterations).
  virtual bool HasWorkKnob() const { return false; }
  /// Smallest and largest knob values; only meaningful with a knob.
  virtual uint64_t MinWork() const { return 1; }
  virtual uint64_t MaxWork() const { return 1; }
  /// The knob's current value.
  virtual uint64_t Work() const { return 1; }
  /// Sets the knob to `work` in [MinWork(), MaxWork()]; the suite updates whatever the kernel
  /// reads (e.g. its uniform) before the next dispatch.
  virtual void SetWork(uint64_t work) { static_cast<void>(work); }

  /// Metric units (FLOP, bytes, ops…) one dispatch does at the current knob value.
  virtual double WorkPerDispatch() const = 0;
};

}  // namespace refract::measure
