// How to write to a stream: in place and in color on a terminal, plain lines elsewhere.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace refract::report {

/// What the output stream supports.
struct TerminalStyle {
  bool is_tty = false;  ///< redraw in place with ANSI cursor movement
  bool color = false;   ///< ANSI colors (only ever with is_tty)
};

/// The style for `stream`: is_tty from isatty(); color on a TTY unless NO_COLOR is set to
/// anything non-empty or TERM is "dumb".
TerminalStyle DetectTerminalStyle(FILE* stream);

/// The rule DetectTerminalStyle applies, with the environment passed in (nullptr = unset).
TerminalStyle ResolveTerminalStyle(bool is_tty, const char* no_color, const char* term);

/// ANSI colors used by the tables.
enum class Color { kNone, kGreen, kYellow, kRed, kCyan, kDim, kBold };

/// `text` wrapped in the ANSI codes for `color` when `style.color`, else `text` unchanged.
std::string Paint(std::string_view text, Color color, TerminalStyle style);

}  // namespace refract::report
