#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "report/live_table.h"
#include "results/run_record.h"

namespace refract::report {
namespace {

using results::ResultRow;
using results::RowStatus;

constexpr TerminalStyle kPipe{.is_tty = false, .color = false};
constexpr TerminalStyle kTty{.is_tty = true, .color = false};
constexpr TerminalStyle kColorTty{.is_tty = true, .color = true};

ResultRow Running(const std::string& id, double best_ms, double metric) {
  ResultRow row;
  row.id = id;
  row.status = RowStatus::kRunning;
  row.times_ms = {best_ms};
  row.stats.min = best_ms;
  row.metric_value = metric;
  row.unit = "FLOP/s";
  return row;
}

ResultRow Finished(ResultRow row) {
  row.status = RowStatus::kOk;
  row.stop_reason = "converged";
  row.timing_method = "gpu-timestamp";
  return row;
}

size_t Count(const std::string& text, const std::string& part) {
  size_t count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

// A clock the test moves by hand.
struct FakeClock {
  double now_s = 100;
  LiveTable::Clock Function() {
    return [this] { return now_s; };
  }
};

TEST(ReportLiveTable, PipeAppendsPlainLinesForNewBestsAndFinalStatus) {
  std::ostringstream out;
  FakeClock clock;
  LiveTable table(out, kPipe, {"f32-fma-scalar", "f16-fma-vec4"}, clock.Function());
  table.OnProgress(1, 0, 2, 4.0);
  table.OnRow(Running("f32-fma-scalar", 1.3, 2.8e12));
  table.OnRow(Running("f32-fma-scalar", 1.4, 2.6e12));  // not a new best: no line
  table.OnProgress(1, 0, 2, 3.0);                       // same round: no line
  ResultRow skipped;
  skipped.id = "f16-fma-vec4";
  skipped.status = RowStatus::kSkipped;
  skipped.message = "needs shader-f16";
  table.OnRow(skipped);
  table.OnProgress(2, 1, 2, 1.5);
  table.OnRow(Running("f32-fma-scalar", 1.25, 2.95e12));
  table.OnRow(Finished(Running("f32-fma-scalar", 1.25, 2.95e12)));
  table.OnRow(Finished(Running("f32-fma-scalar", 1.25, 2.95e12)));  // repeated: no line
  table.Finish();

  EXPECT_EQ(out.str(),
            "round 1 · 0/2 settled · ETA 4.00 s\n"
            "f32-fma-scalar: best so far 2.80 TFLOP/s (1.30 ms, 1 samples)\n"
            "f16-fma-vec4: skipped — needs shader-f16\n"
            "round 2 · 1/2 settled · ETA 1.50 s\n"
            "f32-fma-scalar: best so far 2.95 TFLOP/s (1.25 ms, 1 samples)\n"
            "f32-fma-scalar: ok 2.95 TFLOP/s (best 1.25 ms, converged, gpu-timestamp)\n");
  EXPECT_EQ(out.str().find('\x1b'), std::string::npos);
}

TEST(ReportLiveTable, TtyRedrawsInPlaceWithCursorUp) {
  std::ostringstream out;
  FakeClock clock;
  LiveTable table(out, kTty, {"a", "bb"}, clock.Function());
  table.OnRow(Running("a", 1.25, 2.95e12));
  const std::string first = out.str();
  EXPECT_EQ(first,
            "\r\x1b[2Ka   running    2.95 TFLOP/s  best   1.25 ms        —  1 samples\n"
            "\r\x1b[2Kbb  waiting\n"
            "\r\x1b[2K\n");
  clock.now_s += 1.5;
  table.OnRow(Finished(Running("bb", 2.5, 1.0e12)));
  const std::string second = out.str().substr(first.size());
  EXPECT_EQ(second.rfind("\x1b[3A", 0), 0u) << second;  // back over the 3 lines drawn
  EXPECT_NE(second.find("bb  ok         1.00 TFLOP/s  best   2.50 ms        —  1 samples  "
                        "converged\n"),
            std::string::npos)
      << second;
  EXPECT_EQ(Count(out.str(), "\x1b[3A"), 1u);
}

TEST(ReportLiveTable, TtyRedrawsAtMostOncePerSecond) {
  std::ostringstream out;
  FakeClock clock;
  LiveTable table(out, kTty, {"a", "b"}, clock.Function());
  table.OnRow(Running("a", 1.3, 2.8e12));  // first draw
  clock.now_s += 0.3;
  table.OnRow(Running("a", 1.25, 2.95e12));  // within 1 s: recorded, not drawn
  clock.now_s += 0.3;
  table.OnProgress(1, 0, 2, 2.0);  // still within 1 s
  EXPECT_EQ(Count(out.str(), "\x1b[2Ka "), 1u);
  EXPECT_EQ(out.str().find("2.95"), std::string::npos);

  clock.now_s += 0.5;  // 1.1 s after the first draw
  table.OnRow(Running("b", 2.0, 1.0e12));
  EXPECT_EQ(Count(out.str(), "\x1b[2Ka "), 2u);
  EXPECT_NE(out.str().find("2.95 TFLOP/s"), std::string::npos);
  EXPECT_NE(out.str().find("round 1 · 0/2 settled · ETA 2.00 s"), std::string::npos);

  clock.now_s += 0.1;
  table.OnRow(Finished(Running("b", 2.0, 1.0e12)));
  EXPECT_EQ(Count(out.str(), "\x1b[2Ka "), 2u);
  table.Finish();  // draws the last state whatever the clock says
  EXPECT_EQ(Count(out.str(), "\x1b[2Ka "), 3u);
  EXPECT_NE(out.str().find("b  ok"), std::string::npos);
}

TEST(ReportLiveTable, ColorOnlyWhenTheStyleSaysSo) {
  std::ostringstream plain;
  LiveTable plain_table(plain, kTty, {"a"}, [] { return 0.0; });
  plain_table.OnRow(Finished(Running("a", 1.25, 2.95e12)));
  EXPECT_EQ(plain.str().find("\x1b[32m"), std::string::npos);

  std::ostringstream colored;
  LiveTable colored_table(colored, kColorTty, {"a"}, [] { return 0.0; });
  colored_table.OnRow(Finished(Running("a", 1.25, 2.95e12)));
  EXPECT_NE(colored.str().find("\x1b[32mok\x1b[0m"), std::string::npos);
}

TEST(ReportLiveTable, RowsNotListedGoLast) {
  std::ostringstream out;
  LiveTable table(out, kTty, {"b"}, [] { return 0.0; });
  table.OnRow(Running("a", 1.0, 1.0e12));
  const std::string text = out.str();
  EXPECT_LT(text.find("b  waiting"), text.find("a  running"));
}

}  // namespace
}  // namespace refract::report
