// A fresh, empty folder under the system's temporary folder for one test's files, removed with
// the object (after giving its owner back every permission a test may have taken away).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace refract::testing {

/// The entries of `folder` by name, sorted.
std::vector<std::string> EntryNames(const std::filesystem::path& folder);

class ScratchFolder {
 public:
  /// Creates <temp>/refract-<purpose>-<pid>-<n>, unique within and across processes.
  explicit ScratchFolder(std::string_view purpose);
  ~ScratchFolder();
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }
  /// The folder's entries by name, sorted.
  std::vector<std::string> Entries() const { return EntryNames(path_); }

 private:
  std::filesystem::path path_;
};

}  // namespace refract::testing
