// Reading refract's JSON documents back from text or files, with every failure a
// refract::Error that names the source and what is wrong.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "base/device_description.h"
#include "results/run_record.h"

namespace refract::results {

/// The whole text of the file at `path` (profile/document_text.h: 64 MiB at most, 200 times the
/// largest refract has written, 310 kB, and room for a sweep of 20,000 rows at ~3 kB each).
/// Throws refract::Error naming it: it cannot be opened or read (with the system's reason), it
/// is no regular file (a folder, a named pipe, a device: never opened, so nothing blocks), or it
/// holds more than 64 MiB (reading stops there).
std::string ReadDocumentText(const std::filesystem::path& path);

/// Parses `text` as a run document (results/json_io.h). Throws refract::Error whose message
/// starts with `source` (a file name, in quotes) and says what is wrong: a text that breaks
/// profile/document_text.h's rules (over 64 MiB, not UTF-8, a NUL; a leading byte order mark
/// is ignored), not JSON (with the byte offset of the first error), a number beyond a double's
/// range (its field), a field missing or wrongly typed (named, e.g.
/// "results[2].times_ms"), or another schema_version. Never throws anything else, never
/// recurses on the input's depth beyond the JSON parser's own bounded stack.
RunRecord ParseRunRecord(std::string_view text, const std::string& source);

/// Parses `text` as the document of `refract info --json`; throws like ParseRunRecord.
DeviceDescription ParseDeviceInfo(std::string_view text, const std::string& source);

/// Reads the file at `path` and parses it with ParseRunRecord (source: the path). A file that
/// cannot be read throws refract::Error naming it and the errno text.
RunRecord ReadRunRecordFile(const std::filesystem::path& path);

/// Reads the file at `path` and parses it with ParseDeviceInfo.
DeviceDescription ReadDeviceInfoFile(const std::filesystem::path& path);

}  // namespace refract::results
