// The journal of a sweep run (SWEEPS.md: "resume like Kernel Tuner"): one JSON object a line,
// appended and flushed as each configuration starts and ends, so that a run cut short by an
// interrupt, a lost device, a crash or a kill resumes where it stopped. Layout:
//   {"refract_sweep_journal": 1, "identity": {...}}   the first line: what the run sweeps
//   {"device": {...}}                                 a worker's device (the last one counts)
//   {"begin": "<row id>"}                             a configuration about to run
//   {"row": {...}, "sweep": "<name>", "seconds": S}   a configuration's finished row, and the
//                                                     wall time it took [s]
// A last line without its newline (the process died while writing it) is dropped, and cut off
// the file, when the journal is opened to resume.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/device_description.h"
#include "results/run_record.h"

namespace refract::tune {

inline constexpr int kJournalVersion = 1;

class SweepJournal {
 public:
  /// Starts a journal at `path` for the run `identity` (what a resume must match: sweeps,
  /// kernels, grid, seed). Throws UsageError when the file exists (an unfinished run's journal:
  /// resume it or remove it), OutputError when it cannot be written.
  static SweepJournal Create(const std::string& path, const nlohmann::json& identity);
  /// Opens the journal at `path` to go on with it: its entries read back, a torn last line cut
  /// off. Throws UsageError when there is none or it belongs to another run (naming what
  /// differs), Error naming the line when a line in the middle is not an entry.
  static SweepJournal Resume(const std::string& path, const nlohmann::json& identity);
  /// Reads the journal at `path` without changing it (checks as Resume).
  static SweepJournal Read(const std::string& path, const nlohmann::json& identity);

  SweepJournal(SweepJournal&& other) noexcept;
  SweepJournal& operator=(SweepJournal&&) = delete;
  ~SweepJournal();

  const std::string& path() const { return path_; }
  /// Every finished row by id (a later row of an id replaces an earlier one).
  const std::map<std::string, results::ResultRow>& rows() const { return rows_; }
  /// Seconds the finished rows of `sweep` took together [s].
  double SecondsOf(const std::string& sweep) const;
  /// The last device a worker wrote; empty before any.
  const std::optional<DeviceDescription>& device() const { return device_; }
  /// The configuration begun last and not finished: what a worker that died was running.
  const std::optional<std::string>& unfinished() const { return unfinished_; }
  /// Entries read or appended so far (a worker that appends none made no progress).
  uint64_t entries() const { return entries_; }

  /// Appends an entry, one write of one line; throws OutputError when the write fails.
  void AppendDevice(const DeviceDescription& device);
  void AppendBegin(const std::string& id);
  void AppendRow(const results::ResultRow& row, const std::string& sweep, double seconds);

  /// Reads entries other processes appended since this one was opened (the worker's, for the
  /// supervisor).
  void Reload();

 private:
  SweepJournal(std::string path, int fd, nlohmann::json identity);
  void Append(const nlohmann::json& entry);
  /// Takes one entry (`header`: the first line, checked against the identity); `where` names
  /// its line in messages.
  void Take(const nlohmann::json& entry, bool header, const std::string& where);
  /// Parses `text` (the whole file); returns the length of its whole lines [bytes].
  uint64_t Parse(const std::string& text);

  std::string path_;
  int fd_ = -1;  ///< open for appending; -1 for a journal only read
  nlohmann::json identity_;
  std::map<std::string, results::ResultRow> rows_;
  std::map<std::string, double> seconds_;
  std::optional<DeviceDescription> device_;
  std::optional<std::string> unfinished_;
  uint64_t entries_ = 0;
};

}  // namespace refract::tune
