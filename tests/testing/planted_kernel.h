// A planted kernel: a wrong copy of an embedded .wgsl file, put where KernelSource finds it
// (REFRACT_KERNEL_DIR) for as long as the object lives.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace refract::testing {

class PlantedKernel {
 public:
  /// Writes <fresh temp dir>/<name>.wgsl: the embedded kernel `name` with its one occurrence of
  /// `from` replaced by `to` (the test fails when `from` does not occur exactly once), and
  /// points REFRACT_KERNEL_DIR at that folder.
  PlantedKernel(std::string_view name, std::string_view from, std::string_view to);
  /// Unsets REFRACT_KERNEL_DIR and removes the folder.
  ~PlantedKernel();
  PlantedKernel(const PlantedKernel&) = delete;
  PlantedKernel& operator=(const PlantedKernel&) = delete;

 private:
  std::filesystem::path dir_;
};

}  // namespace refract::testing
