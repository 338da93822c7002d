#include "results/run_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/error.h"
#include "results/json_io.h"

namespace refract::results {

RunRecord ReadRunFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    throw UsageError("cannot read results file '" + path + "': " + std::strerror(errno));
  }
  std::stringstream text;
  text << file.rdbuf();
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& error) {
    throw UsageError("'" + path + "' is not a refract results file: not valid JSON (" +
                     error.what() + ")");
  }
  if (document.is_object() && document.contains("device") && !document.contains("results") &&
      document.contains("schema_version") && !document.contains("command")) {
    throw UsageError("'" + path +
                     "' is a device description (refract info --json), not a run's results");
  }
  try {
    return RunRecordFromJson(document);
  } catch (const Error& error) {
    throw UsageError("'" + path + "': " + error.what());
  }
}

}  // namespace refract::results
