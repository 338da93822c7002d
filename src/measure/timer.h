// How to time a workload: the interface, with GPU and fake implementations elsewhere.
#pragma once

#include <cstdint>
#include <optional>

#include "measure/workload.h"

namespace refract::measure {

/// Times of one batch (one command buffer, one pass of N back-to-back dispatches).
struct Sample {
  double wall_ms = 0;            ///< submit to completion on the host clock [ms]
  std::optional<double> gpu_ms;  ///< end − begin pass timestamps [ms]; empty without timestamps
};

/// Runs batches of a workload and reports their times.
class Timer {
 public:
  virtual ~Timer() = default;
  /// Records `dispatch_count` back-to-back copies of the workload's dispatches in one pass,
  /// submits it and waits. GPU failures propagate as refract::GpuError (DeviceLostError when the
  /// device is gone).
  virtual Sample Time(Workload& workload, uint32_t dispatch_count) = 0;
  /// Wall time of submitting an empty command buffer and waiting for it [ms].
  virtual double EmptySubmitMs() = 0;
};

}  // namespace refract::measure
