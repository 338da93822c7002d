#include "results/run_file.h"

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "results/record_file.h"

namespace refract::results {

RunRecord ReadRunFile(const std::string& path) {
  std::string text;
  try {
    text = ReadDocumentText(path);
  } catch (const Error& error) {
    throw UsageError(error.what());
  }
  // A device description is a common mix-up: say so rather than name a missing field.
  const nlohmann::json document = nlohmann::json::parse(text, nullptr, false);
  if (document.is_object() && document.contains("device") && !document.contains("results") &&
      document.contains("schema_version") && !document.contains("command")) {
    throw UsageError("'" + path +
                     "' is a device description (refract info --json), not a run's results");
  }
  try {
    return ParseRunRecord(text, path);
  } catch (const Error& error) {
    throw UsageError(error.what());
  }
}

}  // namespace refract::results
