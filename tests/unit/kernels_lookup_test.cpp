// The embedded kernel table and its REFRACT_KERNEL_DIR replacements.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "base/error.h"
#include "kernels/embedded_kernels.h"

namespace refract::wgsl {
namespace {

TEST(KernelsLookup, EveryEmbeddedKernelHasAComputeEntryPoint) {
  ASSERT_FALSE(AllKernels().empty());
  for (const EmbeddedKernel& kernel : AllKernels()) {
    // "<name>_part": WGSL shared by several kernels, compiled only as part of one.
    if (!kernel.name.ends_with("_part")) {
      EXPECT_NE(kernel.source.find("@compute"), std::string_view::npos) << kernel.name;
    }
    EXPECT_EQ(KernelSource(kernel.name).data(), kernel.source.data()) << kernel.name;
  }
}

TEST(KernelsLookup, UnknownNameIsAnError) { EXPECT_THROW(KernelSource("no_such_kernel"), Error); }

TEST(KernelsLookup, KernelDirReplacesAnEmbeddedKernel) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "refract-kernel-dir-test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "smoke_scale_add.wgsl") << "// replaced\n";
  setenv(kKernelDirVariable, dir.c_str(), 1);
  EXPECT_EQ(KernelSource("smoke_scale_add"), "// replaced\n");
  // Kernels without a replacement file stay embedded.
  EXPECT_NE(KernelSource("ceil_read_linear").find("@compute"), std::string_view::npos);
  unsetenv(kKernelDirVariable);
  EXPECT_NE(KernelSource("smoke_scale_add").find("@compute"), std::string_view::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace refract::wgsl
