// One row of the ceilings suite: metadata, requirements, preparation, verification, and the
// measure::Workload the engine times.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "gpu/context.h"
#include "measure/workload.h"

namespace refract::suites::ceilings {

/// What --list shows and the results row carries.
struct RowInfo {
  std::string id;           ///< e.g. "read-linear"
  std::string category;     ///< "compute", "bandwidth" or "algorithm"
  std::string unit;         ///< metric unit: "FLOP/s", "OP/s", "B/s", …
  std::string needs;        ///< what the device must have, in words ("" when nothing)
  std::string description;  ///< one line
};

class CeilingRow : public measure::Workload {
 public:
  virtual const RowInfo& info() const = 0;
  std::string_view id() const override { return info().id; }

  /// Why the device cannot run this row ("needs shader-f16"), or nothing when it can.
  virtual std::optional<std::string> MissingRequirement(const gpu::Context& context) const = 0;

  /// Compiles the kernel and allocates the timed problem. GPU errors throw GpuError.
  virtual void Prepare(gpu::Context& context) = 0;

  /// Runs the prepared kernel on a small problem and compares every output with the CPU model.
  /// Throws VerificationError naming the first mismatches. Call after Prepare.
  virtual void Verify(gpu::Context& context) = 0;

  /// Problem shape for the results row (0 when not meaningful).
  virtual uint64_t Rows() const { return 0; }
  virtual uint64_t Cols() const { return 0; }
  virtual uint64_t BufferBytes() const { return 0; }

  /// Frees the GPU resources of the timed problem (after the suite measured it).
  virtual void Release() {}
};

}  // namespace refract::suites::ceilings
