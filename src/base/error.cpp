#include "base/error.h"

#include <string_view>

namespace refract {

std::string WithLocation(const char* file, int line, const std::string& message) {
  std::string_view path(file);
  // Keep the path from src/ on: the build folder's absolute path is noise in messages.
  if (auto pos = path.rfind("src/"); pos != std::string_view::npos) path.remove_prefix(pos);
  return std::string(path) + ":" + std::to_string(line) + ": " + message;
}

}  // namespace refract
