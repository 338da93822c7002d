#include "report/live_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "report/row_format.h"
#include "report/text_table.h"
#include "report/units.h"

namespace refract::report {
namespace {

using results::ResultRow;
using results::RowStatus;

double SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

LiveTable::LiveTable(std::ostream& out, TerminalStyle style, std::vector<std::string> row_ids,
                     Clock clock)
    : out_(out),
      style_(style),
      order_(std::move(row_ids)),
      clock_(clock ? std::move(clock) : Clock(SteadySeconds)) {
  for (const std::string& id : order_) entries_[id];
}

void LiveTable::OnRow(const ResultRow& row) {
  auto [it, inserted] = entries_.try_emplace(row.id);
  if (inserted) order_.push_back(row.id);
  Entry& entry = it->second;
  entry.seen = true;
  entry.row = row;
  if (style_.is_tty) {
    dirty_ = true;
    RedrawIfDue();
  } else {
    AppendPlainLine(entry);
  }
}

void LiveTable::OnProgress(int round, int settled, int total, double eta_s) {
  const bool new_round = !progress_set_ || round != round_;
  round_ = round;
  settled_ = settled;
  total_ = total;
  eta_s_ = eta_s;
  progress_set_ = true;
  if (style_.is_tty) {
    dirty_ = true;
    RedrawIfDue();
  } else if (new_round) {
    out_ << ProgressLine() << '\n';
    out_.flush();
  }
}

void LiveTable::Finish() {
  if (style_.is_tty && (dirty_ || !drawn_once_)) Redraw();
}

void LiveTable::RedrawIfDue() {
  const double now = clock_();
  if (drawn_once_ && now - last_redraw_s_ < kRedrawInterval) return;
  last_redraw_s_ = now;
  Redraw();
}

void LiveTable::Redraw() {
  size_t id_width = 0;
  for (const std::string& id : order_) id_width = std::max(id_width, DisplayWidth(id));
  std::vector<std::string> lines;
  for (const std::string& id : order_) lines.push_back(RowLine(id, entries_.at(id), id_width));
  lines.push_back(ProgressLine());

  std::string text;
  if (lines_drawn_ > 0) text += fmt::format("\x1b[{}A", lines_drawn_);  // back to the top
  for (const std::string& line : lines) text += "\r\x1b[2K" + line + "\n";
  out_ << text;
  out_.flush();
  lines_drawn_ = lines.size();
  drawn_once_ = true;
  dirty_ = false;
}

std::string LiveTable::RowLine(const std::string& id, const Entry& entry, size_t id_width) const {
  std::string line = id + std::string(id_width - DisplayWidth(id), ' ') + "  ";
  if (!entry.seen) return line + Paint("waiting", Color::kDim, style_);
  const ResultRow& row = entry.row;
  const std::string status = StatusText(row.status, style_);
  const std::string padding(
      std::string_view("skipped").size() - results::ToString(row.status).size(), ' ');
  line += status + padding + "  ";
  if (row.status == RowStatus::kSkipped || row.status == RowStatus::kError) {
    return line + row.message;
  }
  line += fmt::format("{:>14}  {} {:>9}  {:>7}  {} samples", MetricText(row), TimeLabel(row),
                      TimeText(row), CiPercentText(row.stats), row.times_ms.size());
  if (!row.stop_reason.empty()) line += "  " + row.stop_reason;
  if (!row.flags.empty()) line += "  [" + FlagsText(row) + "]";
  return line;
}

std::string LiveTable::ProgressLine() const {
  if (!progress_set_) return "";
  std::string line = fmt::format("round {} · {}/{} settled", round_, settled_, total_);
  if (std::isfinite(eta_s_)) line += " · ETA " + FormatDuration(std::max(eta_s_, 0.0) * 1000);
  return Paint(line, Color::kDim, style_);
}

void LiveTable::AppendPlainLine(Entry& entry) {
  const ResultRow& row = entry.row;
  std::string line;
  if (results::IsFinal(row.status)) {
    if (entry.reported_final) return;
    entry.reported_final = true;
    if (row.status == RowStatus::kOk) {
      line = fmt::format("{}: ok {} ({} {}, {}, {})", row.id, MetricText(row), TimeLabel(row),
                         TimeText(row), row.stop_reason, row.timing_method);
      if (!row.flags.empty()) line += " [" + FlagsText(row) + "]";
    } else {
      line = fmt::format("{}: {} — {}", row.id, results::ToString(row.status), row.message);
    }
  } else {
    if (!std::isfinite(row.metric_value) || row.metric_value <= entry.reported_metric) return;
    entry.reported_metric = row.metric_value;
    line = fmt::format("{}: best so far {} ({}, {} samples)", row.id, MetricText(row),
                       TimeText(row), row.times_ms.size());
  }
  out_ << line << '\n';
  out_.flush();
}

}  // namespace refract::report
