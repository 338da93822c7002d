#include "testing/scratch_folder.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>

namespace refract::testing {

namespace fs = std::filesystem;

ScratchFolder::ScratchFolder(std::string_view purpose) {
  static std::atomic<int> counter{0};
  path_ = fs::temp_directory_path() / ("refract-" + std::string(purpose) + "-" +
                                       std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::remove_all(path_);
  fs::create_directories(path_);
}

ScratchFolder::~ScratchFolder() {
  std::error_code ignored;
  fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ignored);
  fs::remove_all(path_, ignored);
}

std::vector<std::string> EntryNames(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace refract::testing
