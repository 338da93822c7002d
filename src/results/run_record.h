// Plain records of one refract run: what ran, on which device, and what each row measured.
// Filled by the suites and the CLI; read by json_io and by report/. No GPU types here.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/device_description.h"
#include "base/verification.h"
#include "results/params.h"

namespace refract::results {

/// Version of the JSON layout json_io writes; bumped on any incompatible change.
inline constexpr int kSchemaVersion = 2;

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

/// Where a row stands against the device's limits (the kernels suite): the roofline model's
/// floor max(flops / peak FMA rate, bytes / peak read bandwidth) and the bound that sets it.
struct Roofline {
  std::string bound;            ///< "read-bandwidth" or "fma": the limit that sets the floor
  double ceiling = kNoValue;    ///< that limit's rate [B/s or FLOP/s]
  double fraction = kNoValue;   ///< the floor's time over the measured time (1 = at the roof)
  double flops = 0;             ///< arithmetic of one dispatch [FLOP]
  double bytes = 0;             ///< bytes one dispatch must move [bytes]
  double intensity = kNoValue;  ///< flops / bytes [FLOP/byte]

  bool operator==(const Roofline&) const = default;
};

/// A second figure a row states beside its headline: the same work timed another way (the q8
/// GEMV with its quantizer as its own dispatch), taken from the row that measured it.
struct AlternateTime {
  std::string what;            ///< what differs from the headline, in words
  std::string row_id;          ///< the row that measured it
  double time_ms = kNoValue;   ///< its time, by the statistic its metric stands on [ms]
  double fraction = kNoValue;  ///< this row's roofline floor over that time [ratio]

  bool operator==(const AlternateTime&) const = default;
};

/// The GPU time a decode step's dispatches of one kind take a token.
struct DecodeKindTime {
  std::string kind;         ///< "qkv", "attention", … (decode/decode_engine.h)
  uint64_t dispatches = 0;  ///< of this kind a token
  double ms = kNoValue;     ///< their GPU time a token [ms]
  /// What they must move a token at least (decode::KindBytesPerToken: weights, the KV read,
  /// activations in and out) [bytes]; none for a kind that moves next to nothing (the advance)
  /// or a document written before the field.
  std::optional<double> bytes;

  bool operator==(const DecodeKindTime&) const = default;
};

/// What a row of `refract decode` measured beside its tokens/s (docs/DECODE.md): the step's
/// shape, where its time goes, and its two bounds, each measured in the same run.
struct DecodeFigures {
  uint64_t context = 0;     ///< KV positions before the first timed step
  uint64_t tokens = 0;      ///< timed steps (a prefill row: its prompt's tokens)
  uint64_t dispatches = 0;  ///< a token (a prefill row: the whole prefill)
  double passes = 0;        ///< likewise (1/16: one pass for 16 tokens)
  double submits = 0;       ///< likewise
  double wall_ms =
      kNoValue;  ///< host clock over the timed steps, submitted back to back [ms a token]
  double gpu_ms = kNoValue;  ///< median GPU time of a step's pass, by timestamps [ms]
  double host_ms =
      kNoValue;  ///< median host time to write a step's values, record and submit it [ms]
  double weight_bytes = 0;               ///< weights a token reads [bytes]
  double cache_bytes = 0;                ///< KV cache a token reads, at the median step [bytes]
  double read_bandwidth = kNoValue;      ///< read-linear of the same run [B/s]
  double bandwidth_bound_ms = kNoValue;  ///< (weight + cache bytes) / read_bandwidth [ms]
  double bandwidth_fraction = kNoValue;  ///< bandwidth_bound_ms / the row's median ms a token
  double dispatch_floor_ms = kNoValue;   ///< a dependent dispatch, same run [ms]
  double dispatch_bound_ms = kNoValue;   ///< dispatches × dispatch_floor_ms [ms]
  double dispatch_fraction = kNoValue;   ///< dispatch_bound_ms / the row's median ms a token
  std::string split_method;              ///< how `split` was timed, in words; "" without a split
  double split_ms = kNoValue;  ///< the profiled steps' median ms a token (what timing them costs)
  std::vector<DecodeKindTime> split;  ///< GPU time by kind, in step order

  bool operator==(const DecodeFigures&) const = default;
};

/// One benchmark row: its identity, what its check compared, its samples, and the headline
/// value derived from them. Times and work are per kernel dispatch.
struct ResultRow {
  std::string id;        ///< unique within the run, e.g. "f32-fma-scalar"
  std::string category;  ///< the suite's grouping, e.g. "compute", "bandwidth", "matmul"
  Params params;         ///< the axes that identify the row: shape, data type, variant, …
  RowStatus status = RowStatus::kRunning;
  std::string message;               ///< why a row is skipped or failed; empty when ok
  std::string description;           ///< one line on what the kernel does
  VerificationRecord verification;   ///< what the output check compared (0 elements: not run)
  std::vector<double> times_ms;      ///< kept samples [ms per dispatch], in measurement order
  std::vector<double> throttled_ms;  ///< samples set aside as throttled [ms per dispatch]
  Statistics stats;                  ///< over times_ms
  std::string statistic = "min";     ///< what metric_value divides by: "min" or "median" time
  std::string
      stop_reason;  ///< "converged", "max-rounds", "throttled", "sample-count"; "" if not ok
  double metric_value = kNoValue;         ///< work_per_dispatch / the `statistic` time, in `unit`
  std::string unit;                       ///< "FLOP/s", "B/s", "OP/s", …
  std::string timing_method;              ///< "gpu-timestamp" or "wall-clock"
  std::vector<std::string> flags;         ///< e.g. "suspect", "throttled", "timestamp-demoted"
  std::vector<std::string> flag_reasons;  ///< one human-readable reason per flag
  double work_per_dispatch = 0;           ///< FLOP, bytes or operations one dispatch performs
  uint64_t dispatches_per_sample = 0;     ///< N back-to-back dispatches in one timed pass
  uint64_t work_knob = 0;  ///< the calibrated work knob (e.g. loop iterations); 0 without one
  /// The work-linearity check: "linear", "suspect" or "unchecked", then the measured time ratio
  /// per work doubling or why nothing was judged; "" for rows without a work knob.
  std::string linearity;
  std::vector<std::string> notes;  ///< calibration and timing events worth showing, in words
  /// The row on the device's roofline; empty for rows the suite does not place there.
  std::optional<Roofline> roofline;
  /// This row's speed over its baseline row's (the same shape, variant "baseline"), NaN when
  /// it has none [ratio].
  double speedup = kNoValue;
  /// The row's work timed another way, beside the headline; empty for most rows.
  std::optional<AlternateTime> alternate;
  /// A decode row's figures (refract decode); empty for every other row.
  std::optional<DecodeFigures> decode;

  /// Field-wise; NaN compares unequal, as usual.
  bool operator==(const ResultRow&) const = default;
};

/// Values a suite derives from a whole run (e.g. "read_bandwidth_Bps"), by name; see
/// report/units.h for how key suffixes map to units.
using Summary = std::map<std::string, double>;

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
  /// What the suite derives from the rows (the ceilings suite: the device's ceilings). May be
  /// empty.
  Summary summary;
};

}  // namespace refract::results
