// Golden files: compare an output with tests/golden/NAME, or rewrite the file when the
// environment variable REFRACT_UPDATE_GOLDEN is set (then review the diff).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace refract::testing {

/// The text of `path`; an empty string when it cannot be read.
inline std::string ReadTextFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

/// Expects `actual` to equal `golden_dir`/`name`, or rewrites that file (and skips the test)
/// when REFRACT_UPDATE_GOLDEN is set.
inline void ExpectGoldenFile(const std::string& golden_dir, const std::string& name,
                             const std::string& actual) {
  const std::string path = golden_dir + "/" + name;
  if (std::getenv("REFRACT_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path, std::ios::binary) << actual;
    GTEST_SKIP() << "rewrote " << path;
  }
  std::ifstream file(path, std::ios::binary);
  ASSERT_TRUE(file) << "missing golden file " << path
                    << " (create it with REFRACT_UPDATE_GOLDEN=1)";
  EXPECT_EQ(actual, ReadTextFile(path)) << "differs from " << path;
}

}  // namespace refract::testing
