#include "results/record_file.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "base/error.h"
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
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& error) {
    throw Error("'" + source + "': not valid JSON: " + LibraryMessage(error));
  }
  try {
    return convert(document);
  } catch (const Error& error) {
    throw Error("'" + source + "': " + error.what());
  } catch (const nlohmann::json::exception& error) {
    // The readers check every type before converting; this is a safety net, not a path.
    throw Error("'" + source + "': invalid refract JSON: " + LibraryMessage(error));
  }
}

}  // namespace

std::string ReadDocumentText(const std::filesystem::path& path) {
  const std::string name = "'" + path.string() + "'";
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    throw Error("cannot read " + name + ": it is a folder, not a file");
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    const int error_number = errno;
    throw Error("cannot read " + name + ": " + std::strerror(error_number));
  }
  std::string text;
  char chunk[1 << 16];
  while (file) {
    file.read(chunk, sizeof chunk);
    text.append(chunk, static_cast<size_t>(file.gcount()));
    if (text.size() > kMaxDocumentBytes) {
      throw Error(fmt::format("cannot read {}: larger than {} MiB, no refract document", name,
                              kMaxDocumentBytes >> 20));
    }
  }
  if (file.bad()) throw Error("cannot read " + name + ": read error");
  return text;
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
