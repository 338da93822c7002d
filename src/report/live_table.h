// The table shown while a suite runs.
//
// On a TTY the whole table (one line per row, then a progress line) is redrawn in place with
// ANSI cursor-up and clear-line codes, at most once per second. Elsewhere (a pipe, a log, or
// --no-live) it appends one plain line per change that matters, a new best or a final status,
// and one progress line per round, never a cursor code.
#pragma once

#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "report/terminal.h"
#include "results/run_observer.h"
#include "results/run_record.h"

namespace refract::report {

/// The live view of a running suite. Not thread-safe: call it from the thread that measures.
class LiveTable final : public results::RunObserver {
 public:
  /// A monotonic clock [seconds]; injectable so tests control the rate limit.
  using Clock = std::function<double()>;

  /// Minimum time between two in-place redraws [seconds].
  static constexpr double kRedrawInterval = 1.0;

  /// Rows are shown in `row_ids` order (rows updated later that are not listed go last).
  /// `clock` defaults to std::chrono::steady_clock.
  LiveTable(std::ostream& out, TerminalStyle style, std::vector<std::string> row_ids,
            Clock clock = {});

  /// Records the row's new state (matched by id) and redraws or appends as described above.
  void OnRow(const results::ResultRow& row) override;

  /// Sets the progress line: "round 3 · 12/15 settled · ETA 4 s"; eta_s NaN hides the ETA.
  void OnProgress(int round, int settled, int total, double eta_s) override;

  /// Draws the final state on a TTY, whatever the rate limit; call once at the end.
  void Finish();

 private:
  struct Entry {
    bool seen = false;
    results::ResultRow row;
    double reported_metric = 0;  ///< the best value a plain line has shown
    bool reported_final = false;
  };

  void RedrawIfDue();
  void Redraw();
  std::string RowLine(const std::string& id, const Entry& entry, size_t id_width) const;
  std::string ProgressLine() const;
  void AppendPlainLine(Entry& entry);

  std::ostream& out_;
  TerminalStyle style_;
  std::vector<std::string> order_;
  std::map<std::string, Entry> entries_;
  Clock clock_;
  double last_redraw_s_ = 0;
  bool drawn_once_ = false;
  bool dirty_ = false;
  size_t lines_drawn_ = 0;
  int round_ = 0, settled_ = 0, total_ = 0;
  double eta_s_ = results::kNoValue;
  bool progress_set_ = false;
};

}  // namespace refract::report
