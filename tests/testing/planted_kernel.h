// Planting a different kernel for a test: a replacement of src/kernels/<name>.wgsl through
// REFRACT_KERNEL_DIR, for as long as the object lives. Rows then verify the planted kernel
// against their unchanged CPU model, as a kernel author's variant would be.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include "testing/scratch_folder.h"

namespace refract::testing {

/// The embedded kernel `name` with its one occurrence of `from` replaced by `to`; throws
/// refract::Error when `from` does not occur exactly once (the edit would be a silent no-op).
std::string EditedKernel(std::string_view name, std::string_view from, std::string_view to);

/// While alive, wgsl::KernelSource(name) returns `source`. Not thread-safe (sets an
/// environment variable); one at a time.
class PlantedKernel {
 public:
  PlantedKernel(std::string_view name, std::string_view source);
  /// The embedded kernel `name` with its one occurrence of `from` replaced by `to`
  /// (EditedKernel).
  PlantedKernel(std::string_view name, std::string_view from, std::string_view to)
      : PlantedKernel(name, EditedKernel(name, from, to)) {}
  /// Several kernels at once, each edited as above: (name, from, to) each.
  struct Edit {
    std::string_view name, from, to;
  };
  explicit PlantedKernel(std::initializer_list<Edit> edits);
  ~PlantedKernel();
  PlantedKernel(const PlantedKernel&) = delete;
  PlantedKernel& operator=(const PlantedKernel&) = delete;

 private:
  ScratchFolder folder_{"planted"};  // a fresh one each time: KernelSource caches by path
};

}  // namespace refract::testing
