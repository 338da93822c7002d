#include <gtest/gtest.h>

#include <cstdio>

#include "report/terminal.h"

namespace refract::report {
namespace {

TEST(ReportTerminal, ColorOnATtyUnlessNoColorOrDumb) {
  EXPECT_TRUE(ResolveTerminalStyle(true, nullptr, "xterm-256color").color);
  EXPECT_TRUE(ResolveTerminalStyle(true, "", "xterm").color);  // empty NO_COLOR is unset
  EXPECT_FALSE(ResolveTerminalStyle(true, "1", "xterm").color);
  EXPECT_TRUE(ResolveTerminalStyle(true, "1", "xterm").is_tty);
  EXPECT_FALSE(ResolveTerminalStyle(true, nullptr, "dumb").color);
  EXPECT_FALSE(ResolveTerminalStyle(false, nullptr, "xterm").color);
  EXPECT_FALSE(ResolveTerminalStyle(false, nullptr, "xterm").is_tty);
}

TEST(ReportTerminal, NoColorDisablesColorCodes) {
  const TerminalStyle style = ResolveTerminalStyle(true, "1", "xterm");
  EXPECT_EQ(Paint("ok", Color::kGreen, style), "ok");
  EXPECT_EQ(Paint("ok", Color::kGreen, ResolveTerminalStyle(true, nullptr, "xterm")),
            "\x1b[32mok\x1b[0m");
}

TEST(ReportTerminal, DetectsAFileIsNotATty) {
  FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  const TerminalStyle style = DetectTerminalStyle(file);
  EXPECT_FALSE(style.is_tty);
  EXPECT_FALSE(style.color);
  std::fclose(file);
}

}  // namespace
}  // namespace refract::report
