// The one way a GPU output is checked against its CPU model: element by element within a
// Tolerance, a VerificationError naming what disagreed, and a record of what was checked.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>

#include "base/error.h"
#include "base/verification.h"

namespace refract::reference {

/// Names an output index in the kernel's own terms, e.g. "row 3, column 17" (default:
/// "element 1234").
using IndexNamer = std::function<std::string(size_t index)>;

/// The largest |value| of `values` (0 for none; NaN is ignored): the magnitude a
/// Tolerance::absolute is scaled by when it is stated relative to the result (LLM kernels).
double MaxMagnitude(std::span<const float> values);
double MaxMagnitude(std::span<const double> values);

/// What the GPU's outputs are checked against, as the messages name it: refract's CPU models by
/// default; a user's reference (refract tune's naive kernel or expected files) is "the reference".
struct ReferenceName {
  std::string phrase = "the CPU model";  ///< "… outputs disagree with <phrase> …"
  std::string label = "CPU";             ///< "element 2: GPU 4, <label> 3"
};

/// Accumulates one comparison, value by value; Finish() reports it.
class Comparison {
 public:
  /// `what`: the kernel or row being checked, the prefix of every message.
  Comparison(std::string what, Tolerance tolerance, IndexNamer namer = {},
             ReferenceName reference = {});

  /// Checks output `index`: the GPU gave `gpu` where the CPU model (the reference) gives `cpu`.
  void Check(size_t index, double gpu, double cpu) { Check(index, gpu, cpu, 0); }
  /// The same with an allowance of this element's own added to the tolerance's absolute part
  /// (e.g. a filter weight's error times the spread of the values it mixes).
  void Check(size_t index, double gpu, double cpu, double extra_absolute);

  /// Notes a structural problem (sizes differ, …) that fails the comparison whatever the values.
  void Fail(std::string problem);

  size_t mismatches() const { return mismatches_; }

  /// The record of what was checked. Throws VerificationError when anything disagreed:
  /// "<what>: N of M outputs disagree with the CPU model (tolerance …; max |error| E at
  /// <index>): <index>: GPU g, CPU c; …" naming the first three (the reference's own name and
  /// label where one was given).
  VerificationRecord Finish() const;

 private:
  std::string Name(size_t index) const;

  std::string what_;
  Tolerance tolerance_;
  IndexNamer namer_;
  ReferenceName reference_;
  size_t checked_ = 0;
  size_t mismatches_ = 0;
  double max_abs_error_ = 0;
  size_t max_error_index_ = 0;
  bool max_error_is_nan_ = false;
  std::string problem_;
  std::ostringstream first_;
};

/// Compares `gpu` with `cpu` element by element (see Comparison). Sizes must agree.
template <typename Gpu, typename Cpu>
VerificationRecord Compare(std::string what, std::span<const Gpu> gpu, std::span<const Cpu> cpu,
                           Tolerance tolerance, IndexNamer namer = {}) {
  Comparison comparison(std::move(what), tolerance, std::move(namer));
  if (gpu.size() != cpu.size()) {
    comparison.Fail("the kernel gave " + std::to_string(gpu.size()) + " values, the model " +
                    std::to_string(cpu.size()));
  } else {
    for (size_t i = 0; i < gpu.size(); ++i) {
      comparison.Check(i, static_cast<double>(gpu[i]), static_cast<double>(cpu[i]));
    }
  }
  return comparison.Finish();
}

/// The same for containers (std::vector, std::array) of any element type.
template <typename GpuRange, typename CpuRange>
VerificationRecord Compare(std::string what, const GpuRange& gpu, const CpuRange& cpu,
                           Tolerance tolerance, IndexNamer namer = {}) {
  return Compare(std::move(what), std::span(gpu), std::span(cpu), tolerance, std::move(namer));
}

}  // namespace refract::reference
