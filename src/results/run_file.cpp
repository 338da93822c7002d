#include "results/run_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/error.h"
#include "results/record_file.h"

namespace refract::results {

RunRecord ReadRunFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    throw UsageError("cannot read results file '" + path + "': " + std::strerror(errno));
  }
  std::stringstream text;
  text << file.rdbuf();
  // A device description is a common mix-up: say so rather than name a missing field.
  const nlohmann::json document = nlohmann::json::parse(text.str(), nullptr, false);
  if (document.is_object() && document.contains("device") && !document.contains("results") &&
      document.contains("schema_version") && !document.contains("command")) {
    throw UsageError("'" + path +
                     "' is a device description (refract info --json), not a run's results");
  }
  try {
    return ParseRunRecord(text.str(), "'" + path + "'");
  } catch (const Error& error) {
    throw UsageError(error.what());
  }
}

}  // namespace refract::results
