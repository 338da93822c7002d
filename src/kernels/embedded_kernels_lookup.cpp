#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "base/error.h"
#include "base/sha256.h"
#include "profile/document_text.h"
#include "kernels/embedded_kernels.h"
#include "refract/profile.h"

namespace refract::wgsl {
namespace {

// Guards the loaded replacements and the two "used" records below.
std::mutex used_mutex;
// Since the last TakeReplacementsUsed, by name.
std::map<std::string, ReplacedKernel> replacements_used;
// Since the last TakeKernelsUsed.
std::set<std::string> kernels_used;

/// Reads <dir>/<name>.wgsl when REFRACT_KERNEL_DIR names a folder holding it; the text lives
/// until the process ends, like the embedded sources.
const std::string* OverrideSource(std::string_view name) {
  const std::string dir = KernelDir();
  if (dir.empty()) return nullptr;
  std::filesystem::path path = std::filesystem::path(dir) / (std::string(name) + ".wgsl");
  // A replacement read once: its text (alive until the process ends) and its stamp.
  struct Loaded {
    std::string text;
    ReplacedKernel kernel;
  };
  static std::map<std::string, Loaded> loaded;  // by path
  std::lock_guard lock(used_mutex);
  auto found = loaded.find(path.string());
  if (found == loaded.end()) {
    std::error_code ignored;
    if (!std::filesystem::exists(path, ignored)) return nullptr;
    profile::document::FileText file = profile::document::ReadFile(path.string());
    if (!file.problem.empty()) throw Error("kernel replacement " + path.string() + " " + file.problem);
    const std::string source = std::move(file.text);
    found = loaded
                .emplace(path.string(),
                         Loaded{source, {std::string(name), path.string(), Sha256Hex(source)}})
                .first;
  }
  replacements_used[std::string(name)] = found->second.kernel;
  return &found->second.text;
}

}  // namespace

std::string KernelDir() {
  const char* dir = std::getenv(kKernelDirVariable);
  if (dir == nullptr || *dir == '\0') return "";
  std::error_code ignored;
  if (!std::filesystem::is_directory(dir, ignored)) {
    throw Error(std::string(kKernelDirVariable) + "='" + dir +
                "' is not a folder: no kernel would be replaced");
  }
  return dir;
}

std::vector<ReplacedKernel> TakeReplacementsUsed() {
  std::lock_guard lock(used_mutex);
  std::vector<ReplacedKernel> used;
  for (auto& [name, kernel] : replacements_used) used.push_back(std::move(kernel));
  replacements_used.clear();
  return used;
}

std::vector<std::string> TakeKernelsUsed() {
  std::lock_guard lock(used_mutex);
  std::vector<std::string> used(kernels_used.begin(), kernels_used.end());
  kernels_used.clear();
  return used;
}

std::string KernelsHash(const std::vector<std::string>& names) {
  std::vector<profile::KernelText> texts;
  for (const std::string& name : names) texts.push_back({name, std::string(KernelSource(name))});
  return profile::KernelHash(std::move(texts));
}

std::string_view KernelSource(std::string_view name) {
  if (const std::string* source = OverrideSource(name)) {
    std::lock_guard lock(used_mutex);
    kernels_used.insert(std::string(name));
    return *source;
  }
  for (const EmbeddedKernel& kernel : AllKernels()) {
    if (kernel.name == name) {
      std::lock_guard lock(used_mutex);
      kernels_used.insert(std::string(name));
      return kernel.source;
    }
  }
  throw Error("no embedded kernel named '" + std::string(name) + "'");
}

}  // namespace refract::wgsl
