// The ceilings suite's kernels (ceil_*, and the smoke kernel) against
// tests/golden/kernel_sources.sha256, so that a kernel generated from a template
// (src/kernels/*.wgsl.in) stays byte-identical to the file it replaced and no ceiling moves
// unnoticed. After an intended change to one of them, rewrite the golden file with
// REFRACT_UPDATE_GOLDEN=1 and review its diff. Kernels of other suites (llm_*) are tuned often
// and verified against their references instead; they are not recorded.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>

#include "base/sha256.h"
#include "kernels/embedded_kernels.h"

namespace refract::wgsl {
namespace {

const std::string kGoldenPath =
    std::string(REFRACT_SOURCE_DIR) + "/tests/golden/kernel_sources.sha256";

/// Kernel name -> recorded hash, from lines `<hash>  <name>`.
std::map<std::string, std::string> ReadGolden() {
  std::ifstream file(kGoldenPath);
  std::map<std::string, std::string> golden;
  std::string line;
  while (std::getline(file, line)) {
    std::istringstream fields(line);
    std::string hash;
    std::string name;
    if (fields >> hash >> name) golden[name] = hash;
  }
  return golden;
}

TEST(KernelSourcesGolden, Sha256MatchesTheStandardsExamples) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // Two blocks: the padding does not fit after 56 bytes.
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

/// The kernels whose text is recorded: the ceilings suite's and the smoke kernel.
bool IsRecorded(std::string_view name) {
  return name.starts_with("ceil_") || name.starts_with("smoke_");
}

TEST(KernelSourcesGolden, EveryCeilingsKernelHasItsRecordedText) {
  if (std::getenv("REFRACT_UPDATE_GOLDEN") != nullptr) {
    std::ofstream file(kGoldenPath, std::ios::trunc);
    for (const EmbeddedKernel& kernel : AllKernels()) {
      if (IsRecorded(kernel.name)) file << Sha256Hex(kernel.source) << "  " << kernel.name << "\n";
    }
    ASSERT_TRUE(file.good()) << "cannot write " << kGoldenPath;
    GTEST_SKIP() << "rewrote " << kGoldenPath;
  }
  std::map<std::string, std::string> golden = ReadGolden();
  ASSERT_FALSE(golden.empty()) << "cannot read " << kGoldenPath;
  for (const EmbeddedKernel& kernel : AllKernels()) {
    if (!IsRecorded(kernel.name)) continue;
    auto recorded = golden.find(std::string(kernel.name));
    if (recorded == golden.end()) {
      ADD_FAILURE() << kernel.name << " has no recorded hash in " << kGoldenPath
                    << " (a new kernel: record it with REFRACT_UPDATE_GOLDEN=1)";
      continue;
    }
    EXPECT_EQ(Sha256Hex(kernel.source), recorded->second)
        << kernel.name << ": the embedded text differs from the recorded one";
    golden.erase(recorded);
  }
  for (const auto& [name, hash] : golden) {
    ADD_FAILURE() << "recorded kernel " << name << " is not embedded";
  }
}

// A kernel generated from a fragment is looked up, and replaced, by its name like a plain one.
TEST(KernelSourcesGenerated, KernelDirReplacesAGeneratedKernel) {
  EXPECT_NE(KernelSource("ceil_f32_sqrt").find("x7 = sqrt(x7) + b7;"), std::string_view::npos);
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "refract-generated-kernel-dir-test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "ceil_f32_sqrt.wgsl") << "// replaced\n";
  setenv(kKernelDirVariable, dir.c_str(), 1);
  EXPECT_EQ(KernelSource("ceil_f32_sqrt"), "// replaced\n");
  unsetenv(kKernelDirVariable);
  EXPECT_NE(KernelSource("ceil_f32_sqrt").find("sqrt(x0)"), std::string_view::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace refract::wgsl
