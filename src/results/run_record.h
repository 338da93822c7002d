// Plain records of one refract run: what ran, on which device, and what each row measured.
// Filled by the suites and the CLI; read by json_io and by report/. No GPU types here.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/device_description.h"

namespace refract::results {

/// Version of the JSON layout json_io writes; bumped on any incompatible change.
inline constexpr int kSchemaVersion = 1;

/// Not-a-number, the value of every measurement that has not been made.
inline constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

/// Summary of a row's kept samples, all in milliseconds per dispatch. A plain copy of what
/// measure/ computes, so results/ does not depend on it. NaN where not computed.
struct Statistics {
  uint64_t count = 0;  ///< number of kept samples
  double min = kNoValue;
  double mean = kNoValue;
  double median = kNoValue;
  double stddev = kNoValue;  ///< sample standard deviation (n - 1)
  double ci95 = kNoValue;    ///< half-width of the 95 % confidence interval (Student t)
  double p10 = kNoValue;
  double p90 = kNoValue;

  /// Field-wise; NaN compares unequal, as usual.
  bool operator==(const Statistics&) const = default;
};

/// Where a row stands: still measuring, done, skipped (a missing feature) or failed.
enum class RowStatus { kRunning, kOk, kSkipped, kError };

/// "running", "ok", "skipped" or "error".
std::string_view ToString(RowStatus status);

/// The inverse of ToString; throws refract::Error on any other string.
RowStatus RowStatusFromString(std::string_view text);

/// True for ok, skipped and error: the row will not change any more.
bool IsFinal(RowStatus status);

/// One benchmark row: its identity, its samples, and the headline value derived from them.
struct ResultRow {
  std::string id;        ///< e.g. "f32-fma-scalar"
  std::string category;  ///< "compute", "bandwidth" or "algorithm"
  RowStatus status = RowStatus::kRunning;
  std::string message;  ///< why a row is skipped or failed; empty when ok
  uint64_t rows = 0;    ///< display grid of the public project; 0 when n/a
  uint64_t cols = 0;
  uint64_t inner_iterations = 0;     ///< the calibrated work knob (loop iterations per thread)
  std::vector<double> times_ms;      ///< kept samples [ms per dispatch], in measurement order
  std::vector<double> throttled_ms;  ///< samples set aside as throttled [ms per dispatch]
  Statistics stats;                  ///< over times_ms
  std::string stop_reason;           ///< "converged", "max-rounds", "throttled"; "" when not ok
  double metric_value = kNoValue;    ///< work_per_dispatch / stats.min, in `unit`
  std::string unit;                  ///< "FLOP/s", "B/s" or "OP/s"
  std::string timing_method;         ///< "gpu-timestamp" or "wall-clock"
  std::vector<std::string> flags;    ///< e.g. "suspect", "throttled", "timestamp-demoted"
  std::vector<std::string> flag_reasons;  ///< one human-readable reason per flag
  double work_per_dispatch = 0;           ///< FLOP, bytes or operations one dispatch performs
  uint64_t dispatches_per_sample = 0;     ///< N back-to-back dispatches in one timed pass
  uint64_t buffer_bytes = 0;              ///< size of the main buffer; 0 when n/a
  std::string description;                ///< one line on what the kernel does
  /// The work-linearity check: "linear", "suspect" or "unchecked", then the measured time ratio
  /// per work doubling or why nothing was judged; "" for rows without a work knob.
  std::string linearity;
  std::vector<std::string> notes;  ///< calibration and timing events worth showing, in words

  /// Field-wise; NaN compares unequal, as usual.
  bool operator==(const ResultRow&) const = default;
};

/// Everything one run produced; json_io turns it into the exported document.
struct RunRecord {
  int schema_version = kSchemaVersion;
  std::string tool = "refract";
  std::string tool_version;                    ///< e.g. "0.1.0"
  std::string dawn_package;                    ///< e.g. "bun-webgpu-linux-x64@0.1.7"
  std::string command;                         ///< the subcommand, e.g. "ceilings"
  std::map<std::string, std::string> options;  ///< the options the run used, as given
  uint64_t seed = 0;
  std::string started_at;         ///< ISO-8601 UTC, e.g. "2025-01-31T12:00:00Z"
  std::string finished_at;        ///< ISO-8601 UTC
  double wall_time_s = kNoValue;  ///< [seconds] from start to finish
  DeviceDescription device;
  std::vector<ResultRow> rows;
  /// Summary values filled by the suite, e.g. "read_bandwidth_Bps"; see report/units.h for
  /// how key suffixes map to units. May be empty.
  std::map<std::string, double> ceilings;
};

}  // namespace refract::results
