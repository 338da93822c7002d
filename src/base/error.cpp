#include "base/error.h"

#include <string_view>

namespace refract {

std::string SourceLocation(const char* file, int line) {
  std::string_view path(file);
  if (auto pos = path.rfind("src/"); pos != std::string_view::npos) path.remove_prefix(pos);
  return std::string(path) + ":" + std::to_string(line);
}

}  // namespace refract
