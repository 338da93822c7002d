#include "report/terminal.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "base/lookup.h"

namespace refract::report {

TerminalStyle DetectTerminalStyle(FILE* stream) {
  bool is_tty = stream != nullptr && ::isatty(::fileno(stream)) == 1;
  return ResolveTerminalStyle(is_tty, std::getenv("NO_COLOR"), std::getenv("TERM"));
}

TerminalStyle ResolveTerminalStyle(bool is_tty, const char* no_color, const char* term) {
  bool no_color_set = no_color != nullptr && no_color[0] != '\0';
  bool dumb = term != nullptr && std::strcmp(term, "dumb") == 0;
  return TerminalStyle{.is_tty = is_tty, .color = is_tty && !no_color_set && !dumb};
}

std::string Paint(std::string_view text, Color color, TerminalStyle style) {
  // The SGR escape of each colour; none for Color::kNone.
  static constexpr Entry<Color, std::string_view> kCodes[] = {
      {Color::kGreen, "\x1b[32m"}, {Color::kYellow, "\x1b[33m"}, {Color::kRed, "\x1b[31m"},
      {Color::kCyan, "\x1b[36m"},  {Color::kDim, "\x1b[2m"},     {Color::kBold, "\x1b[1m"}};
  const std::string_view code = Lookup(kCodes, color, {});
  if (!style.color || code.empty()) return std::string(text);
  return std::string(code) + std::string(text) + "\x1b[0m";
}

}  // namespace refract::report
