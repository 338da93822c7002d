// The ops' pure half stays pure: every *_rules.cpp of src/ops/ (the refract_op_rules library,
// which unit tests and the sweeps' GPU-free code link alone) reaches no header of src/gpu/, not
// even through the headers it includes. Read from the sources, so a new include that breaks the
// layering fails here, not in a later refactor.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace refract {
namespace {

namespace fs = std::filesystem;
const fs::path kSource = fs::path(REFRACT_SOURCE_DIR) / "src";

/// The project headers `file` includes ("ops/axis.h"), as written.
std::vector<std::string> ProjectIncludes(const fs::path& file) {
  std::ifstream in(file);
  const std::regex include(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::vector<std::string> found;
  for (std::string line; std::getline(in, line);) {
    std::smatch match;
    if (std::regex_search(line, match, include)) found.push_back(match[1]);
  }
  return found;
}

/// Every project header `file` reaches, through the headers it includes, with the chain that
/// reached each first.
std::map<std::string, std::string> Reached(const fs::path& file) {
  std::map<std::string, std::string> reached;
  std::vector<std::pair<std::string, std::string>> queue;
  for (const std::string& header : ProjectIncludes(file)) queue.push_back({header, header});
  while (!queue.empty()) {
    auto [header, chain] = queue.back();
    queue.pop_back();
    if (!reached.emplace(header, chain).second) continue;
    const fs::path path = kSource / header;
    if (!fs::exists(path)) continue;  // include/refract/profile.h and third-party headers
    for (const std::string& next : ProjectIncludes(path)) {
      queue.push_back({next, chain + " -> " + next});
    }
  }
  return reached;
}

TEST(OpsLayering, NoRulesFileReachesAGpuHeader) {
  size_t files = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(kSource / "ops")) {
    const std::string name = entry.path().filename().string();
    if (!name.ends_with("_rules.cpp")) continue;
    ++files;
    for (const auto& [header, chain] : Reached(entry.path())) {
      EXPECT_NE(header.rfind("gpu/", 0), 0u) << name << ": " << chain;
    }
  }
  EXPECT_GE(files, 13u);
}

TEST(OpsLayering, TheCheckSeesATransitiveGpuInclude) {
  // The rule can fail: an op header (which records dispatches) reaches gpu/ through op.h.
  const std::map<std::string, std::string> reached = Reached(kSource / "ops" / "op_kinds.h");
  EXPECT_TRUE(reached.contains("gpu/context.h"));
}

}  // namespace
}  // namespace refract
