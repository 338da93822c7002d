// Output formats against golden files: `ceilings --list`, and the shape of the JSON document.
// Regenerate after an intended change with REFRACT_UPDATE_GOLDEN=1 and review the diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "testing/run_command.h"

namespace refract {
namespace {

using testing::RunCommand;

const std::string kRefract = REFRACT_BINARY;
const std::string kGoldenDir = std::string(REFRACT_SOURCE_DIR) + "/tests/golden/";

/// Compares `actual` with the golden file, or rewrites it when REFRACT_UPDATE_GOLDEN is set.
void ExpectGolden(const std::string& name, const std::string& actual) {
  std::string path = kGoldenDir + name;
  if (std::getenv("REFRACT_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path) << actual;
    GTEST_SKIP() << "rewrote " << path;
  }
  std::ifstream file(path);
  ASSERT_TRUE(file) << "missing golden file " << path;
  std::stringstream expected;
  expected << file.rdbuf();
  EXPECT_EQ(actual, expected.str()) << "differs from " << path;
}

// Values that are the same on every machine and run; everything else is masked by its type.
const std::set<std::string> kStableKeys = {"schema_version", "tool",   "command", "id",
                                           "category",       "status", "unit",    "backend"};

/// The document with every machine- or time-dependent value replaced by its JSON type: what
/// stays is the schema.
nlohmann::json Skeleton(const nlohmann::json& value, const std::string& key = "") {
  if (value.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [k, v] : value.items()) {
      // Maps keyed by machine-dependent names (limits, options, summary) keep one entry.
      bool free_keys = k == "limits" || k == "adapter_limits" || k == "options" || k == "summary";
      if (free_keys && v.is_object() && !v.empty()) {
        out[k] = {{"<name>", Skeleton(v.begin().value())}};
      } else {
        out[k] = Skeleton(v, k);
      }
    }
    return out;
  }
  if (value.is_array()) {
    // Arrays of records keep the first record's shape; other arrays (samples, flags, names)
    // vary in length and emptiness from run to run.
    if (value.empty() || !value[0].is_object()) return "<array>";
    return nlohmann::json::array({Skeleton(value[0])});
  }
  if (kStableKeys.count(key)) return value;
  return std::string("<") + value.type_name() + ">";
}

TEST(GoldenE2e, CeilingsListOfTheFullCatalog) {
  auto result = RunCommand(kRefract + " ceilings --list --preset full");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  ExpectGolden("ceilings_list.txt", result.out);
}

TEST(GoldenE2e, CeilingsJsonSchema) {
  // A fixed count keeps every sample, so the row always has 3 and states its spread. Under the
  // convergence rule a loaded machine can set a slow sample aside as throttled, and a row left
  // with fewer than 3 writes ci95 and stddev as null: a verdict that would follow the load.
  // --throttle-factor 1 plays that machine (every sample slower than the best is throttled).
  auto result = RunCommand(kRefract +
                           " ceilings --filter read-linear --buffer-mib 16 --json - --no-live"
                           " --seed 1 --samples 3 --throttle-factor 1 --idle-gap-ms 0"
                           " --batch-ms 20");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  nlohmann::json skeleton = Skeleton(nlohmann::json::parse(result.out));
  ExpectGolden("ceilings_schema.json", skeleton.dump(2) + "\n");
}

TEST(GoldenE2e, InfoJsonSchema) {
  auto result = RunCommand(kRefract + " info --json -");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  nlohmann::json skeleton = Skeleton(nlohmann::json::parse(result.out));
  ExpectGolden("info_schema.json", skeleton.dump(2) + "\n");
}

}  // namespace
}  // namespace refract
