#include "results/record_file.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "base/error.h"
#include "profile/document_text.h"
#include "results/json_io.h"

namespace refract::results {
namespace {

// nlohmann's message without its "[json.exception.parse_error.101] " prefix.
std::string LibraryMessage(const nlohmann::json::exception& error) {
  std::string message = error.what();
  if (message.rfind("[json.exception.", 0) == 0) {
    if (const size_t end = message.find("] "); end != std::string::npos) message.erase(0, end + 2);
  }
  return message;
}

// Parses `text` and converts it with `convert`; every failure becomes refract::Error naming
// `source`.
template <typename Convert>
auto Parse(std::string_view text, const std::string& source, Convert convert) {
  namespace document = profile::document;
  if (const std::optional<std::string> problem = document::TextProblem(text)) {
    throw Error("'" + source + "': " + *problem);
  }
  text = document::WithoutByteOrderMark(text);
  nlohmann::json parsed;
  try {
    parsed = nlohmann::json::parse(text);
  } catch (const nlohmann::json::out_of_range&) {  // a number past a double's range
    throw Error("'" + source + "': " + document::FailurePath(text, "document") +
                ": not finite (a number beyond a double's range)");
  } catch (const nlohmann::json::exception& error) {
    throw Error("'" + source + "': not valid JSON: " + LibraryMessage(error));
  }
  try {
    return convert(parsed);
  } catch (const Error& error) {
    throw Error("'" + source + "': " + error.what());
  } catch (const nlohmann::json::exception& error) {
    // The readers check every type before converting; this is a safety net, not a path.
    throw Error("'" + source + "': invalid refract JSON: " + LibraryMessage(error));
  }
}

}  // namespace

std::string ReadDocumentText(const std::filesystem::path& path) {
  profile::document::FileText file = profile::document::ReadFile(path.string());
  if (!file.problem.empty()) throw Error("cannot read '" + path.string() + "': " + file.problem);
  return std::move(file.text);
}

RunRecord ParseRunRecord(std::string_view text, const std::string& source) {
  return Parse(text, source,
               [](const nlohmann::json& document) { return RunRecordFromJson(document); });
}

DeviceDescription ParseDeviceInfo(std::string_view text, const std::string& source) {
  return Parse(text, source, [](const nlohmann::json& document) {
    return DeviceDescriptionFromInfoDocument(document);
  });
}

RunRecord ReadRunRecordFile(const std::filesystem::path& path) {
  return ParseRunRecord(ReadDocumentText(path), path.string());
}

DeviceDescription ReadDeviceInfoFile(const std::filesystem::path& path) {
  return ParseDeviceInfo(ReadDocumentText(path), path.string());
}

}  // namespace refract::results
