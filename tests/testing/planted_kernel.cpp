#include "testing/planted_kernel.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>

#include "kernels/embedded_kernels.h"

namespace refract::testing {

PlantedKernel::PlantedKernel(std::string_view name, std::string_view from, std::string_view to) {
  std::string source(kernels::KernelSource(name));
  const size_t at = source.find(from);
  EXPECT_NE(at, std::string::npos) << name << " does not contain: " << from;
  EXPECT_EQ(source.find(from, at + 1), std::string::npos) << name << " contains twice: " << from;
  if (at != std::string::npos) source.replace(at, from.size(), to);
  std::string pattern =
      (std::filesystem::temp_directory_path() / "refract-planted-XXXXXX").string();
  EXPECT_NE(mkdtemp(pattern.data()), nullptr);
  dir_ = pattern;
  std::ofstream(dir_ / (std::string(name) + ".wgsl")) << source;
  setenv(kernels::kKernelDirVariable, dir_.c_str(), 1);
}

PlantedKernel::~PlantedKernel() {
  unsetenv(kernels::kKernelDirVariable);
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

}  // namespace refract::testing
