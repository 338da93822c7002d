#include "tune/wgsl_declarations.h"

#include <algorithm>
#include <regex>
#include <string>

namespace refract::tune {
namespace {

/// `text` with its comments (// to the line's end, /* */ nested) blanked out, newlines kept,
/// so that offsets and lines stay those of the file.
std::string WithoutComments(std::string_view text) {
  std::string out(text);
  size_t i = 0;
  while (i < out.size()) {
    if (out.compare(i, 2, "//") == 0) {
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
    } else if (out.compare(i, 2, "/*") == 0) {
      int depth = 0;
      do {
        if (out.compare(i, 2, "/*") == 0) {
          ++depth;
          out[i] = out[i + 1] = ' ';
          i += 2;
        } else if (out.compare(i, 2, "*/") == 0) {
          --depth;
          out[i] = out[i + 1] = ' ';
          i += 2;
        } else {
          if (out[i] != '\n') out[i] = ' ';
          ++i;
        }
      } while (depth > 0 && i < out.size());
    } else {
      ++i;
    }
  }
  return out;
}

uint32_t LineAt(const std::string& text, size_t offset) {
  return 1 + static_cast<uint32_t>(std::count(text.begin(), text.begin() + offset, '\n'));
}

std::string Trimmed(std::string text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

}  // namespace

WgslDeclarations ScanWgsl(std::string_view source) {
  const std::string text = WithoutComments(source);
  WgslDeclarations declarations;
  static const std::regex kOverride(R"(\boverride\s+([A-Za-z_][A-Za-z0-9_]*))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kOverride);
       it != std::sregex_iterator(); ++it) {
    declarations.overrides.emplace((*it)[1].str(), LineAt(text, it->position()));
  }
  // Attributes, then `var<space, access> name`.
  static const std::regex kVar(
      R"(((?:@[A-Za-z_]+\s*\([^)]*\)\s*)+)var\s*(?:<([^>]*)>)?\s*([A-Za-z_][A-Za-z0-9_]*))");
  static const std::regex kGroup(R"(@group\s*\(\s*(\d+)\s*\))");
  static const std::regex kBinding(R"(@binding\s*\(\s*(\d+)\s*\))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kVar);
       it != std::sregex_iterator(); ++it) {
    const std::string attributes = (*it)[1].str();
    std::smatch group, binding;
    if (!std::regex_search(attributes, group, kGroup) ||
        !std::regex_search(attributes, binding, kBinding)) {
      continue;
    }
    WgslBinding var{.name = (*it)[3].str(), .line = LineAt(text, it->position())};
    const std::string template_list = (*it)[2].str();
    const size_t comma = template_list.find(',');
    var.address_space = Trimmed(template_list.substr(0, comma));
    if (var.address_space == "storage") {
      var.access = comma == std::string::npos ? "read" : Trimmed(template_list.substr(comma + 1));
    }
    declarations.bindings[{static_cast<uint32_t>(std::stoul(group[1].str())),
                           static_cast<uint32_t>(std::stoul(binding[1].str()))}] = var;
  }
  static const std::regex kFunction(
      R"(((?:@[A-Za-z_]+\s*(?:\([^)]*\))?\s*)+)fn\s+([A-Za-z_][A-Za-z0-9_]*))");
  static const std::regex kCompute(R"(@compute\b)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kFunction);
       it != std::sregex_iterator(); ++it) {
    const std::string attributes = (*it)[1].str();
    if (std::regex_search(attributes, kCompute)) {
      declarations.entry_points.emplace((*it)[2].str(), LineAt(text, it->position()));
    }
  }
  return declarations;
}

}  // namespace refract::tune
