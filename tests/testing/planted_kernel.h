// Planting a wrong kernel for one test: a copy of an embedded kernel with one edit, served in
// its place through REFRACT_KERNEL_DIR while the object lives.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace refract::testing {

/// Writes kernel `name` with the first occurrence of `from` replaced by `to` into a fresh
/// folder and points REFRACT_KERNEL_DIR at it; the destructor unsets the variable and removes
/// the folder. Throws Error when `from` is not in the kernel (the plant would be a no-op).
/// Each object uses its own folder: kernels::KernelSource caches replacements by path.
class PlantedKernel {
 public:
  PlantedKernel(std::string_view name, std::string_view from, std::string_view to);
  ~PlantedKernel();
  PlantedKernel(const PlantedKernel&) = delete;
  PlantedKernel& operator=(const PlantedKernel&) = delete;

 private:
  std::filesystem::path dir_;
};

}  // namespace refract::testing
