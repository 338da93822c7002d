#include "report/terminal.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

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
  const char* code = nullptr;
  switch (color) {
    case Color::kNone:
      break;
    case Color::kGreen:
      code = "\x1b[32m";
      break;
    case Color::kYellow:
      code = "\x1b[33m";
      break;
    case Color::kRed:
      code = "\x1b[31m";
      break;
    case Color::kCyan:
      code = "\x1b[36m";
      break;
    case Color::kDim:
      code = "\x1b[2m";
      break;
    case Color::kBold:
      code = "\x1b[1m";
      break;
  }
  if (!style.color || code == nullptr) return std::string(text);
  return std::string(code) + std::string(text) + "\x1b[0m";
}

}  // namespace refract::report
