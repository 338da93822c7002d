// refract's profiles as an engine reads them: the winners of `refract sweep` keyed by adapter,
// many adapters in one store file (docs/PROFILES.md; the layout: docs/profile.schema.json).
// This header and its library need the C++20 standard library only: no Dawn, no refract.
//
// Loading is strict per entry, never per file: a store that is not valid JSON, not a profile
// store, of a newer schema or with any field of the wrong type or meaning throws ProfileError
// naming the field; an entry whose stamp does not match what the caller runs is stale and is
// never returned, with the reason, while the rest of the store answers.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace refract::profile {

inline constexpr const char* kFormat = "refract-profile-store";
/// The schema this library writes; it reads every schema from 1 up to it (1 has no `grid`).
inline constexpr int kSchemaVersion = 2;

/// A store that cannot be read: the message names the file or field and what is wrong with it.
class ProfileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The adapter a profile was measured on; `key` is refract's one-line identity of all the
/// other fields ("nvidia / NVIDIA H200 (0x10de:0x2335) / NVIDIA: 580.… / vulkan / subgroups
/// 32-32"), the one a query names.
struct Adapter {
  std::string key;
  std::string vendor;
  std::string architecture;
  std::string device;
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  std::string driver;
  std::string backend;
  uint32_t subgroup_min_size = 0;
  uint32_t subgroup_max_size = 0;

  bool operator==(const Adapter&) const = default;
};

/// The key of the adapter `adapter`'s other fields describe (its own `key` is not read): what an
/// engine computes from the WebGPU adapter info of the device it runs on (vendor, architecture,
/// device, vendor and device id, description as `driver`, backend in lower case, subgroup sizes)
/// to find that device's profile.
std::string AdapterKeyOf(const Adapter& adapter);

/// One measured configuration of a sweep problem.
struct Choice {
  std::map<std::string, uint32_t> params;  ///< the op's axis values by name
  std::string row;                         ///< the sweep row it was measured as
  double median_ms = 0;                    ///< a dispatch's median time [ms], > 0
  double p10_ms = 0;                       ///< the 10th and 90th percentiles [ms]
  double p90_ms = 0;
  /// How much slower the fastest other configuration was (0.05 = 5 %); none when alone.
  std::optional<double> runner_up_margin;
  std::optional<double> over_default;  ///< speed-up over refract's built-in default
  std::optional<double> over_seed;     ///< speed-up over the seed's default configuration

  bool operator==(const Choice&) const = default;
};

/// Where the best time along the sweep's main axis falls off.
struct Cliff {
  std::string axis;    ///< the main axis
  double at = 0;       ///< its value where the cliff is
  std::string reason;  ///< how deep, and the likely cause

  bool operator==(const Cliff&) const = default;
};

/// What an entry was measured with; a query's expectations are compared with it.
struct Stamp {
  std::string refract_version;       ///< "0.1.0"
  std::string dawn_package;          ///< "bun-webgpu-linux-x64@0.1.7"
  std::vector<std::string> kernels;  ///< the WGSL files the winner compiled, in name order
  std::string kernel_hash;           ///< KernelHash of those files' texts
  std::vector<std::string> axes;     ///< the op's axis names, in name order
  std::string axes_hash;    ///< AxesHash of the op's axes (names, meanings, allowed values)
  /// ISO 8601 UTC to the second, exactly "2026-12-01T17:07:14Z" (a real date and time), so
  /// that comparing two as text compares them in time.
  std::string measured_at;

  bool operator==(const Stamp&) const = default;
};

/// The winners of one sweep problem on one adapter.
struct Entry {
  std::string sweep;    ///< "q4-gemv", "kernel:rmsnorm", …
  std::string kernel;   ///< the kernel the configuration is for: "matmul-q4", "reduce", …
  std::string variant;  ///< "tuned", "tuned-q8", …
  std::string problem;  ///< the sweep's problem: "qwen2.5-0.5b/q+o/m1/tuned-q8"
  std::map<std::string, double> shape;  ///< the problem's dimensions: {"m":1,"n":896,"k":896}
  Choice winner;
  std::optional<Choice> winner_default_limits;  ///< within WebGPU's default limits, if any ran
  std::vector<Cliff> cliffs;
  Stamp stamp;
  /// The configurations the winner was chosen from (each sweep row's label after the problem:
  /// "rows=1:tpr=32:wg=256", "default"), in name order, each once; nothing (null) for an entry
  /// of a schema-1 store, which did not record it. An entry is replaced only by a run whose grid holds all of these
  /// (ReplacementProblem).
  std::optional<std::vector<std::string>> grid;

  bool operator==(const Entry&) const = default;
};

struct AdapterProfile {
  Adapter adapter;
  std::vector<Entry> entries;

  bool operator==(const AdapterProfile&) const = default;
};

/// A store: one profile per adapter, in the order written.
struct Store {
  std::vector<AdapterProfile> profiles;

  bool operator==(const Store&) const = default;
};

/// The store in `text`; throws ProfileError naming the first problem: a text over 64 MiB, not
/// UTF-8 or holding a NUL (a leading byte order mark is ignored), a JSON syntax error with its
/// offset, a number beyond a double's range (its field), another format, a schema newer than
/// kSchemaVersion, a missing or mistyped field with its path, a time that is not > 0, a
/// `measured_at` that is no UTC time, two profiles of one adapter, two entries of one kernel,
/// variant and problem within a profile (docs/PROFILES.md, "Reading").
Store ParseStore(std::string_view text);

/// The store in the file at `path`; throws ProfileError naming the path: it is not there or
/// cannot be opened, it is no regular file (a folder, a named pipe, a device: never opened, so
/// nothing blocks), it holds more than 64 MiB, or ParseStore refuses its text.
Store LoadStore(const std::string& path);

/// `store` as the JSON text ParseStore reads (two-space indented, ending in a newline).
std::string StoreToJson(const Store& store);

/// What an engine asks: the best configuration of `kernel` (and `variant`, when not empty) for
/// `problem` or, when no entry has that problem, the nearest entry by `shape`.
struct Query {
  std::string adapter_key;  ///< Adapter::key of the device the engine runs on
  std::string kernel;
  std::string variant;  ///< "": any variant
  std::string problem;  ///< "": by shape only
  std::map<std::string, double> shape;
  /// The default-limits winner instead of the overall one (an engine that requests no limits).
  bool default_limits = false;
  // What the caller runs; an entry whose stamp differs is stale. Empty: not compared.
  std::string dawn_package;
  std::string kernel_hash;
  std::string axes_hash;
};

/// An entry left out of an answer, and why.
struct Stale {
  std::string problem;
  std::string reason;  ///< "kernel hash 'a…' vs 'b…'", "dawn package …"
};

struct Answer {
  /// The configuration, or nothing: no profile of the adapter, no entry of the kernel, every
  /// entry stale, or no default-limits winner when one was asked for. `note` says which.
  std::optional<Choice> choice;
  const Entry* entry = nullptr;  ///< the entry answered from (points into the store)
  bool exact = false;            ///< false: the nearest shape, `note` names it
  std::string note;              ///< how the answer was found, in words
  std::vector<Stale> stale;      ///< entries of the kernel skipped as stale
};

/// Answers `query` from `store`. Nearest shape: among the fresh entries of the kernel (and
/// variant) whose shape has the same dimension names as the query's, the smallest sum of
/// |ln(entry / query)| over the dimensions (a dimension ≤ 0 counts as equal only to itself);
/// an entry with the query's problem, or a distance of 0, is exact.
Answer Lookup(const Store& store, const Query& query);

/// Why `entry` is stale for `query`'s expectations, or nothing when it is fresh.
std::optional<std::string> StaleReason(const Entry& entry, const Query& query);

/// Why `newer` may not replace `older` (an entry of the same adapter, kernel, variant and
/// problem), or nothing when it may: a store never gets worse because a run looked at less.
/// It may when it was measured with another Dawn, kernel source or axes (`older` is then stale
/// for what measured `newer`), or when its grid holds every configuration `older`'s winner was
/// chosen from; not when `older` records no grid (schema 1) or `newer`'s grid misses some of
/// its configurations (the message counts them and names the first).
std::optional<std::string> ReplacementProblem(const Entry& older, const Entry& newer);

/// `base` with `incoming` merged in: an adapter's profile is added when new; an entry of the
/// same adapter, kernel, variant and problem is replaced when `incoming`'s was measured later
/// (stamp.measured_at) and ReplacementProblem allows it, and kept otherwise. Each decision
/// appends a line to `notes` when given.
Store Merge(const Store& base, const Store& incoming, std::vector<std::string>* notes = nullptr);

/// The SHA-256 digest of `text` (FIPS 180-4), as 64 lowercase hex digits.
std::string Sha256Hex(std::string_view text);

/// A WGSL file's name (without ".wgsl") and text.
struct KernelText {
  std::string name;
  std::string text;
};

/// The stamp of the kernels a configuration compiles: SHA-256 of each file as
/// "<name>\n<bytes>\n<text>" concatenated in name order.
std::string KernelHash(std::vector<KernelText> kernels);

/// An op's axis as the axes hash sees it.
struct AxisText {
  std::string name;
  std::string meaning;  ///< with its unit
  std::string allowed;  ///< "a power of two from 32 to 1024"
};

/// The stamp of an op's axes: SHA-256 of "<name>\n<meaning>\n<allowed>\n" in name order, so a
/// renamed axis or a changed meaning makes an entry stale.
std::string AxesHash(std::vector<AxisText> axes);

}  // namespace refract::profile
