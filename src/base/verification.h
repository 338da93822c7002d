// What a kernel's output check compared, as a plain record: filled by reference/compare.h,
// carried by every result row (results/), printed by report/.
#pragma once

#include <cstdint>
#include <optional>

namespace refract {

/// How far a GPU value g may stray from the CPU model's value c:
/// |g − c| ≤ absolute + relative · |c|. Both 0 means exact (integer outputs). NaN never passes.
struct Tolerance {
  double absolute = 0;
  double relative = 0;

  bool IsExact() const { return absolute == 0 && relative == 0; }
  bool operator==(const Tolerance&) const = default;
};

/// What one verification checked and how close the GPU came.
struct VerificationRecord {
  uint64_t elements = 0;     ///< output values compared
  double max_abs_error = 0;  ///< largest |g − c| over them (0 when all agree exactly)
  Tolerance tolerance;       ///< the tolerance they were held to
  /// Where a kernel computes an approximation of a model on purpose (the q4 GEMV on int8
  /// activations, against f32 activations): the largest |g − model| over the model's largest
  /// |value| [ratio], what an engine trades for the speed; nothing otherwise.
  std::optional<double> model_deviation;
  /// How many of `elements` disagreed, for a check that failed (then `max_abs_error` is the
  /// largest error among all compared, and the row is `error`); nothing for one that passed.
  std::optional<uint64_t> mismatches;

  bool operator==(const VerificationRecord&) const = default;
};

}  // namespace refract
