#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>

#include "base/error.h"
#include "kernels/embedded_kernels.h"

namespace refract::wgsl {
namespace {

/// Reads <dir>/<name>.wgsl when REFRACT_KERNEL_DIR names a folder holding it; the text lives
/// until the process ends, like the embedded sources.
const std::string* OverrideSource(std::string_view name) {
  const char* dir = std::getenv(kKernelDirVariable);
  if (dir == nullptr || *dir == '\0') return nullptr;
  std::filesystem::path path = std::filesystem::path(dir) / (std::string(name) + ".wgsl");
  static std::mutex mutex;
  static std::map<std::string, std::string> loaded;
  std::lock_guard lock(mutex);
  if (auto found = loaded.find(path.string()); found != loaded.end()) return &found->second;
  std::ifstream file(path);
  if (!file) return nullptr;
  std::ostringstream text;
  text << file.rdbuf();
  return &loaded.emplace(path.string(), text.str()).first->second;
}

}  // namespace

std::string_view KernelSource(std::string_view name) {
  if (const std::string* source = OverrideSource(name)) return *source;
  for (const EmbeddedKernel& kernel : AllKernels()) {
    if (kernel.name == name) return kernel.source;
  }
  throw Error("no embedded kernel named '" + std::string(name) + "'");
}

}  // namespace refract::wgsl
